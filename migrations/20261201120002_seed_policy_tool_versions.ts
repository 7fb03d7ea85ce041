import type { Knex } from 'knex';
import { newId } from '../shared/platform/ids.js';

// One official version of each policy runtime, as a TFE installation lists its official versions
// from the start: OPA 0.59.0 and Sentinel 0.22.1 for linux/amd64, with their published SHA-256.
const OFFICIAL = [
  {
    tool: 'opa',
    version: '0.59.0',
    url: 'https://github.com/open-policy-agent/opa/releases/download/v0.59.0/opa_linux_amd64_static',
    sha: '5f615343a1cae1deb2f2f514b2f4b46456495fe1c828b17e779eb583aced0cc3',
  },
  {
    tool: 'sentinel',
    version: '0.22.1',
    url: 'https://releases.hashicorp.com/sentinel/0.22.1/sentinel_0.22.1_linux_amd64.zip',
    sha: '0a4a2b2baf46bfeb81d5137b2656b159ccc881487df3bebacd350ea48b53e76c',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex('policy_tool_versions').insert(
    OFFICIAL.map((v) => ({
      id: newId('tool'),
      ...v,
      archs: JSON.stringify([{ url: v.url, sha: v.sha, os: 'linux', arch: 'amd64' }]),
      official: true,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const v of OFFICIAL)
    await knex('policy_tool_versions').where({ tool: v.tool, version: v.version, official: true }).del();
}
