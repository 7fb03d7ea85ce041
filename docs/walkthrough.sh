#!/usr/bin/env bash
# The README walkthrough, runnable: expects the service started with SITE_ADMIN_TOKEN=x.
# API defaults to http://127.0.0.1:8080/api/v2; set API to point elsewhere.
set -euo pipefail
API=${API:-http://127.0.0.1:8080/api/v2}
ADMIN=${ADMIN_TOKEN:-x}
SUFFIX=${SUFFIX:-}
call() { # call TOKEN METHOD PATH [BODY]
  curl -sS --fail-with-body -H "Authorization: Bearer $1" -H 'Content-Type: application/vnd.api+json' -X "$2" "$API$3" ${4:+-d "$4"}
}
field() { node -e "const d = JSON.parse(require('fs').readFileSync(0, 'utf8')); console.log($1)"; }

# 1. The site admin creates a user and a token for that user.
USER_ID=$(call "$ADMIN" POST /admin/users \
  "{\"data\":{\"type\":\"users\",\"attributes\":{\"username\":\"alice$SUFFIX\",\"email\":\"alice$SUFFIX@example.com\"}}}" | field d.data.id)
ALICE=$(call "$ADMIN" POST "/users/$USER_ID/authentication-tokens" '{}' | field d.data.attributes.token)

# 2. An organization (its creator joins the owners team).
call "$ADMIN" POST /organizations \
  "{\"data\":{\"type\":\"organizations\",\"attributes\":{\"name\":\"acme$SUFFIX\",\"email\":\"ops@acme.example\"}}}" >/dev/null

# 3. Invite the user; the user accepts with their own token.
OU_ID=$(call "$ADMIN" POST "/organizations/acme$SUFFIX/organization-memberships" \
  "{\"data\":{\"type\":\"organization-memberships\",\"attributes\":{\"email\":\"alice$SUFFIX@example.com\"}}}" | field d.data.id)
call "$ALICE" POST "/organization-memberships/$OU_ID/actions/accept" >/dev/null

# 4. A team and a workspace.
TEAM_ID=$(call "$ADMIN" POST "/organizations/acme$SUFFIX/teams" \
  '{"data":{"type":"teams","attributes":{"name":"platform","organization-access":{"manage-workspaces":true}}}}' | field d.data.id)
call "$ADMIN" POST "/organizations/acme$SUFFIX/workspaces" \
  '{"data":{"type":"workspaces","attributes":{"name":"networking","auto-apply":false}}}' | field d.data.id

# 5. Add the user to the team by username, list the team with its users, remove the user.
call "$ADMIN" POST "/teams/$TEAM_ID/relationships/users" "{\"data\":[{\"type\":\"users\",\"id\":\"alice$SUFFIX\"}]}"
call "$ADMIN" GET "/teams/$TEAM_ID?include=users" | field "'team users: ' + d.included.map((u) => u.attributes.username).join(',')"
call "$ADMIN" DELETE "/teams/$TEAM_ID/relationships/users" "{\"data\":[{\"type\":\"users\",\"id\":\"alice$SUFFIX\"}]}"
call "$ADMIN" GET "/teams/$TEAM_ID?include=users" | field "'team users after removal: ' + d.data.attributes['users-count']"
