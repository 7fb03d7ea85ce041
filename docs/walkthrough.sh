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
WS_ID=$(call "$ADMIN" POST "/organizations/acme$SUFFIX/workspaces" \
  '{"data":{"type":"workspaces","attributes":{"name":"networking","auto-apply":false}}}' | field d.data.id)
echo "$WS_ID"

# 5. Add the user to the team by username, list the team with its users, remove the user.
call "$ADMIN" POST "/teams/$TEAM_ID/relationships/users" "{\"data\":[{\"type\":\"users\",\"id\":\"alice$SUFFIX\"}]}"
call "$ADMIN" GET "/teams/$TEAM_ID?include=users" | field "'team users: ' + d.included.map((u) => u.attributes.username).join(',')"
call "$ADMIN" DELETE "/teams/$TEAM_ID/relationships/users" "{\"data\":[{\"type\":\"users\",\"id\":\"alice$SUFFIX\"}]}"
call "$ADMIN" GET "/teams/$TEAM_ID?include=users" | field "'team users after removal: ' + d.data.attributes['users-count']"

# 6. Push a state as `terraform state push` does through the API: lock the workspace, create a
#    state version (serial, lineage, md5 of the state and the state in base64), read it back, unlock.
call "$ADMIN" POST "/workspaces/$WS_ID/actions/lock" '{"reason":"pushing state"}' >/dev/null
STATE='{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"walkthrough","outputs":{"region":{"value":"eu-west-1","type":"string"}},"resources":[]}'
SV_BODY=$(STATE="$STATE" node -e "
const s = Buffer.from(process.env.STATE);
const md5 = require('crypto').createHash('md5').update(s).digest('hex');
console.log(JSON.stringify({ data: { type: 'state-versions', attributes: { serial: 1, lineage: 'walkthrough', md5, state: s.toString('base64') } } }));")
call "$ADMIN" POST "/workspaces/$WS_ID/state-versions" "$SV_BODY" | field "'state version: serial ' + d.data.attributes.serial + ' ' + d.data.attributes.status"
call "$ADMIN" GET "/workspaces/$WS_ID/current-state-version-outputs" | field "'outputs: ' + d.data.map((o) => o.attributes.name + '=' + o.attributes.value).join(',')"
call "$ADMIN" POST "/workspaces/$WS_ID/actions/unlock" '{}' >/dev/null

# 7. Workspace variables: a Terraform variable, an HCL one, and a sensitive environment variable
#    whose value the API never returns again; list them.
call "$ADMIN" POST "/workspaces/$WS_ID/vars" \
  '{"data":{"type":"vars","attributes":{"key":"region","value":"eu-west-1","category":"terraform"}}}' >/dev/null
call "$ADMIN" POST "/workspaces/$WS_ID/vars" \
  '{"data":{"type":"vars","attributes":{"key":"zones","value":"[\"a\", \"b\"]","category":"terraform","hcl":true}}}' >/dev/null
call "$ADMIN" POST "/workspaces/$WS_ID/vars" \
  '{"data":{"type":"vars","attributes":{"key":"API_SECRET","value":"s3cret","category":"env","sensitive":true}}}' | field "'sensitive value returned: ' + d.data.attributes.value"
call "$ADMIN" GET "/workspaces/$WS_ID/vars" | field "'variables: ' + d.data.map((v) => v.attributes.category + ':' + v.attributes.key).sort().join(',')"
