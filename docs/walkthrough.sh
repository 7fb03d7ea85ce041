#!/usr/bin/env bash
# The README's quick start, run as written. Its commands are not copied here: they are the ```sh
# blocks of README.md that follow a `<!-- walkthrough: service -->` or `<!-- walkthrough -->`
# comment, so the README and what the tests run cannot drift apart.
#
#   docs/walkthrough.sh service   runs the service block (start the service) in the repository
#   docs/walkthrough.sh steps     runs every other marked block, in order, in one bash session, in a
#                                 fresh HOME (the service must be up and SITE_ADMIN_TOKEN exported)
#   docs/walkthrough.sh print     prints the steps script instead of running it
#
# RLS_ADDRESS (default 127.0.0.1:8080) replaces the README's 127.0.0.1:8080 everywhere, so that a
# test can run the service on a free port (then also set PORT for `service`).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
address=${RLS_ADDRESS:-127.0.0.1:8080}

# The blocks marked `name`: a marker line, then the next fenced block (blank lines between allowed).
blocks() {
  awk -v marker="<!-- walkthrough${1:+: $1} -->" '
    $0 == marker { armed = 1; next }
    inside && /^```/ { inside = 0; next }
    inside { print; next }
    armed && /^```sh$/ { inside = 1; armed = 0; next }
    armed && NF { armed = 0 }
  ' "$repo/README.md" | sed "s/127\.0\.0\.1:8080/$address/g"
}

case "${1:-}" in
  service)
    script=$(blocks service)
    [ -n "$script" ] || { echo "README.md has no walkthrough service block" >&2; exit 1; }
    cd "$repo"
    exec bash -euo pipefail -c "$script"
    ;;
  steps | print)
    script=$(blocks)
    [ -n "$script" ] || { echo "README.md has no walkthrough blocks" >&2; exit 1; }
    [ "$1" = print ] && { printf '%s\n' "$script"; exit 0; }
    : "${SITE_ADMIN_TOKEN:?export the SITE_ADMIN_TOKEN the service was started with}"
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    cd "$home"
    HOME=$home bash -euo pipefail -c "$script"
    ;;
  *)
    echo "usage: $0 service|steps|print" >&2
    exit 2
    ;;
esac
