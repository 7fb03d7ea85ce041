import { expect } from 'chai';
import { api, doc } from './api.js';
import { putArchive, tarGz } from './fixtures.js';
import type { Org } from './module-tests.js';

/** The module's address under the organization's registry, relative to /api/v2. */
export const privateModulePath = (org: string, name: string, provider: string) =>
  `/organizations/${org}/registry-modules/private/${org}/${name}/${provider}`;

/** The registry protocol's base for a module (absolute path on the test server). */
export const protocolPath = (org: string, name: string, provider: string) =>
  `/api/registry/v1/modules/${org}/${name}/${provider}`;

/** Creates a private module (when it does not exist yet) as the organization's owner. */
export async function ensureModule(org: Org, name: string, provider: string): Promise<void> {
  const res = await api('POST', `/organizations/${org.name}/registry-modules`, {
    token: org.owner.token,
    body: doc('registry-modules', { name, provider, 'registry-name': 'private', namespace: org.name }),
  });
  if (res.status !== 201) {
    const found = await api('GET', privateModulePath(org.name, name, provider), { token: org.owner.token });
    expect(found.status, res.text).to.equal(200);
  }
}

/** Creates a version through the API; returns its document (with links.upload). */
export async function createVersion(
  org: Org,
  name: string,
  provider: string,
  version: string,
  extra: Record<string, unknown> = {},
) {
  const res = await api('POST', `${privateModulePath(org.name, name, provider)}/versions`, {
    token: org.owner.token,
    body: doc('registry-module-versions', { version, ...extra }),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

/** Publishes `files` as `version` of the module (created when needed); returns the version document after the upload. */
export async function publishVersion(
  org: Org,
  name: string,
  provider: string,
  version: string,
  files: Record<string, string>,
) {
  await ensureModule(org, name, provider);
  const created = await createVersion(org, name, provider, version);
  const put = await putArchive(created.links.upload, await tarGz(files));
  expect(put.status, put.text).to.equal(200);
  const shown = await api('GET', `${privateModulePath(org.name, name, provider)}/${version}`, {
    token: org.owner.token,
  });
  expect(shown.status, shown.text).to.equal(200);
  expect(shown.body.data.attributes.status).to.equal('ok');
  return shown.body.data;
}

/** A module whose output names what it was given, in the version it was published as. */
export const namingModule = (version: string): Record<string, string> => ({
  'main.tf': `variable "prefix" {
  type        = string
  description = "Put before every name."
  default     = "app"
}
variable "suffix" {
  type = string
}
resource "terraform_data" "name" {
  input = "\${var.prefix}-\${var.suffix}"
}
output "name" {
  description = "The composed name."
  value       = terraform_data.name.output
}
output "version" { value = "${version}" }
`,
  'README.md': `# naming ${version}\n\nComposes names.\n`,
  'modules/short/main.tf': 'variable "word" { type = string }\noutput "short" { value = substr(var.word, 0, 3) }\n',
  'tests/naming.tftest.hcl': `variables {
  suffix = "api"
}
run "composes" {
  assert {
    condition     = output.name == "app-api"
    error_message = "unexpected name \${output.name}"
  }
}
`,
});
