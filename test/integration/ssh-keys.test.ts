import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { waitFor } from '../helpers/processes.js';

type Org = { name: string; owner: TestUser };

/** A key pair made by ssh-keygen (`args`: its format and passphrase), the private key's text and the public key's line. */
async function keyPair(args: string[] = []): Promise<{ private: string; public: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-sshkey-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rls-test', ...args, '-f', join(dir, 'key')]);
    return {
      private: await readFile(join(dir, 'key'), 'utf8'),
      public: (await readFile(join(dir, 'key.pub'), 'utf8')).trim(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const keyBody = (attrs: Record<string, unknown>) => doc('ssh-keys', attrs);
/** The body go-tfe's AssignSSHKey sends (UnassignSSHKey sends the id null). */
const assignBody = (id: string | null) => ({ data: { type: 'workspaces', attributes: { id } } });

/** SSH keys as TFE has them (go-tfe and the tfe provider use them), and what a run with one gets. */
describe('ssh keys', function () {
  this.timeout(120_000);
  let org: Org;
  let ed25519: { private: string; public: string };

  before(async () => {
    org = await createOrg();
    ed25519 = await keyPair();
  });

  const newKey = async (within: Org = org, value = ed25519.private) => {
    const res = await api('POST', `/organizations/${within.name}/ssh-keys`, {
      token: within.owner.token,
      body: keyBody({ name: uniq('key'), value }),
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; attributes: { name: string } };
  };
  const assign = (wsId: string, id: string | null, token = org.owner.token) =>
    api('PATCH', `/workspaces/${wsId}/relationships/ssh-key`, { token, body: assignBody(id) });

  describe('the keys of an organization', () => {
    it('creates, lists, reads, renames, replaces and deletes a key; the private key is never answered and is sealed at rest', async () => {
      const name = uniq('deploy key');
      const created = await api('POST', `/organizations/${org.name}/ssh-keys`, {
        token: org.owner.token,
        body: keyBody({ name, value: ed25519.private }),
      });
      expect(created.status, created.text).to.equal(201);
      const key = created.body.data;
      expect(key.type).to.equal('ssh-keys');
      expect(key.id).to.match(/^sshkey-/);
      expect(key.attributes.name).to.equal(name);
      expect(key.attributes).not.to.have.property('value');
      expect(key.links.self).to.equal(`/api/v2/ssh-keys/${key.id}`);

      const listed = await api('GET', `/organizations/${org.name}/ssh-keys`, { token: org.owner.token });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data.map((k: { id: string }) => k.id)).to.include(key.id);
      expect(listed.body.meta.pagination['total-count']).to.equal(listed.body.data.length);
      const read = await api('GET', `/ssh-keys/${key.id}`, { token: org.owner.token });
      expect(read.body.data.attributes.name).to.equal(name);

      const other = await keyPair();
      const changed = await api('PATCH', `/ssh-keys/${key.id}`, {
        token: org.owner.token,
        body: keyBody({ name: 'updated-key-name', value: other.private }),
      });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body.data).to.include({ id: key.id });
      expect(changed.body.data.attributes.name).to.equal('updated-key-name');

      // Nothing of either private key is in a response or in the row, which holds it sealed.
      const secretLine = (pem: string) => pem.split('\n')[1];
      for (const res of [created, listed, read, changed]) {
        expect(res.text).not.to.include(secretLine(ed25519.private));
        expect(res.text).not.to.include(secretLine(other.private));
      }
      const row = await harness().rt.db('ssh_keys').where({ id: key.id }).first();
      expect(row.value_sealed).to.be.a('string');
      expect(JSON.stringify(row)).not.to.include(secretLine(other.private)).and.not.include('PRIVATE KEY');

      expect((await api('DELETE', `/ssh-keys/${key.id}`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `/ssh-keys/${key.id}`, { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/ssh-keys/${key.id}`, { token: org.owner.token }), 404);
    });

    it('takes the private key formats OpenSSH reads, and a value with no key block as TFE does', async () => {
      for (const format of [[], ['-m', 'PEM', '-t', 'rsa', '-b', '2048'], ['-m', 'PKCS8', '-t', 'ecdsa']]) {
        const pair = await keyPair(format);
        await newKey(org, pair.private.replace(/\n/g, '\r\n'));
      }
      // go-tfe's own tests create keys with random text as the value; TFE accepts it, and so does this service.
      await newKey(org, 'd5a3e0c2-77b3-4b5e-8f7e-4a1f1a0c9e11');
    });

    it('refuses what cannot be a usable private key with 422 naming the value, and writes nothing', async () => {
      const before = await countRows('ssh_keys');
      const encrypted = await keyPair(['-N', 'a passphrase']);
      const encryptedPem = await keyPair(['-m', 'PEM', '-t', 'rsa', '-b', '2048', '-N', 'a passphrase']);
      const encryptedPkcs8 = await keyPair(['-m', 'PKCS8', '-t', 'rsa', '-b', '2048', '-N', 'a passphrase']);
      const truncated = ed25519.private.split('\n').slice(0, 3).join('\n');
      const cases: [string, RegExp][] = [
        [ed25519.public, /public key/],
        ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', /certificate, not a private key/],
        [encrypted.private, /passphrase/],
        [encryptedPem.private, /passphrase/],
        [encryptedPkcs8.private, /passphrase/],
        [truncated, /END OPENSSH PRIVATE KEY-----" line is missing/],
        [`${ed25519.private}${ed25519.private}`, /more than one key/],
        [
          '-----BEGIN OPENSSH PRIVATE KEY-----\nbm90IGEga2V5\n-----END OPENSSH PRIVATE KEY-----\n',
          /not an OpenSSH key/,
        ],
        ['   \n ', /can't be blank/],
      ];
      for (const [value, detail] of cases) {
        const res = await api('POST', `/organizations/${org.name}/ssh-keys`, {
          token: org.owner.token,
          body: keyBody({ name: uniq('key'), value }),
        });
        expectError(res, 422, detail);
        expect(res.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/value' });
      }
      const key = await newKey();
      expectError(
        await api('PATCH', `/ssh-keys/${key.id}`, { token: org.owner.token, body: keyBody({ value: ed25519.public }) }),
        422,
        /public key/,
      );
      // Missing name or value, and a value that is not text: refused by the body's schema.
      for (const attrs of [
        { value: ed25519.private },
        { name: uniq('key') },
        { name: uniq('key'), value: 42 },
        { name: '', value: ed25519.private },
      ]) {
        expectError(
          await api('POST', `/organizations/${org.name}/ssh-keys`, { token: org.owner.token, body: keyBody(attrs) }),
          422,
        );
      }
      expect(await countRows('ssh_keys')).to.equal(before + 1);
    });

    it('lets manage-vcs-settings change keys and workspace admins see them; others, other organizations and organization tokens get nothing', async () => {
      const key = await newKey();
      const ws = await createWorkspace(org);
      const admin = await memberWithAccess(org, ws.id, 'admin');
      const writer = await memberWithAccess(org, ws.id, 'write');
      // A workspace admin sees the keys (to pick one for a workspace) but may not change them.
      expect((await api('GET', `/organizations/${org.name}/ssh-keys`, { token: admin.token })).status).to.equal(200);
      expect((await api('GET', `/ssh-keys/${key.id}`, { token: admin.token })).status).to.equal(200);
      expectError(
        await api('POST', `/organizations/${org.name}/ssh-keys`, {
          token: admin.token,
          body: keyBody({ name: uniq('key'), value: ed25519.private }),
        }),
        404,
      );
      expectError(
        await api('PATCH', `/ssh-keys/${key.id}`, { token: admin.token, body: keyBody({ name: 'taken over' }) }),
        404,
      );
      expectError(await api('DELETE', `/ssh-keys/${key.id}`, { token: admin.token }), 404);
      // A member without admin access to any workspace sees none.
      expectError(await api('GET', `/organizations/${org.name}/ssh-keys`, { token: writer.token }), 404);
      expectError(await api('GET', `/ssh-keys/${key.id}`, { token: writer.token }), 404);

      // A team with manage-vcs-settings manages keys, with its members' tokens and its own.
      const vcs = await createUser();
      await joinOrg(org, vcs);
      const team = await createTeam(org, { 'organization-access': { 'manage-vcs-settings': true } });
      expect(
        (
          await api('POST', `/teams/${team}/relationships/users`, {
            token: org.owner.token,
            body: { data: [{ type: 'users', id: vcs.username }] },
          })
        ).status,
      ).to.equal(204);
      const byMember = await api('POST', `/organizations/${org.name}/ssh-keys`, {
        token: vcs.token,
        body: keyBody({ name: uniq('key'), value: ed25519.private }),
      });
      expect(byMember.status, byMember.text).to.equal(201);
      const teamToken = (await api('POST', `/teams/${team}/authentication-token`, { token: org.owner.token })).body.data
        .attributes.token;
      expect(
        (
          await api('PATCH', `/ssh-keys/${byMember.body.data.id}`, {
            token: teamToken,
            body: keyBody({ name: 'renamed by the team' }),
          })
        ).status,
      ).to.equal(200);
      expect((await api('DELETE', `/ssh-keys/${byMember.body.data.id}`, { token: teamToken })).status).to.equal(204);

      // An organization token is refused, as in TFE; another organization's owner sees nothing.
      const orgToken = (
        await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token })
      ).body.data.attributes.token;
      expectError(
        await api('GET', `/organizations/${org.name}/ssh-keys`, { token: orgToken }),
        403,
        /organization token/,
      );
      expectError(await api('GET', `/ssh-keys/${key.id}`, { token: orgToken }), 403, /organization token/);
      const outsider = await createOrg();
      expectError(await api('GET', `/ssh-keys/${key.id}`, { token: outsider.owner.token }), 404);
      expectError(
        await api('PATCH', `/ssh-keys/${key.id}`, { token: outsider.owner.token, body: keyBody({ name: 'stolen' }) }),
        404,
      );
      expectError(await api('GET', `/organizations/${org.name}/ssh-keys`, { token: outsider.owner.token }), 404);
      expect((await api('GET', `/ssh-keys/${key.id}`, { token: org.owner.token })).body.data.attributes.name).to.equal(
        key.attributes.name,
      );
    });
  });

  describe("a workspace's key", () => {
    it('is assigned and unassigned with the bodies go-tfe sends, shown as the ssh-key relationship, and dropped when the key is deleted', async () => {
      const key = await newKey();
      const ws = await createWorkspace(org);
      const fresh = await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token });
      expect(fresh.body.data.relationships['ssh-key']).to.deep.equal({ data: null });

      const assigned = await assign(ws.id, key.id);
      expect(assigned.status, assigned.text).to.equal(200);
      expect(assigned.body.data.type).to.equal('workspaces');
      expect(assigned.body.data.relationships['ssh-key'].data).to.deep.equal({ type: 'ssh-keys', id: key.id });
      const byName = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token });
      expect(byName.body.data.relationships['ssh-key'].data).to.deep.equal({ type: 'ssh-keys', id: key.id });

      const unassigned = await assign(ws.id, null);
      expect(unassigned.status, unassigned.text).to.equal(200);
      expect(unassigned.body.data.relationships['ssh-key']).to.deep.equal({ data: null });

      expect((await assign(ws.id, key.id)).status).to.equal(200);
      expect((await api('DELETE', `/ssh-keys/${key.id}`, { token: org.owner.token })).status).to.equal(204);
      const after = await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token });
      expect(after.body.data.relationships['ssh-key']).to.deep.equal({ data: null });
    });

    it("needs admin access to the workspace and a key of the workspace's organization", async () => {
      const key = await newKey();
      const ws = await createWorkspace(org);
      const writer = await memberWithAccess(org, ws.id, 'write');
      const admin = await memberWithAccess(org, ws.id, 'admin');
      expectError(await assign(ws.id, key.id, writer.token), 404);
      expect((await assign(ws.id, key.id, admin.token)).status).to.equal(200);

      const foreign = await newKey(await createOrg());
      for (const id of [foreign.id, 'sshkey-doesnotexist1234']) {
        const res = await assign(ws.id, id);
        expectError(res, 422, /not found in the organization/);
        expect(res.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/id' });
      }
      // A body without the id attribute says nothing about the key: refused, the key kept.
      expectError(
        await api('PATCH', `/workspaces/${ws.id}/relationships/ssh-key`, {
          token: org.owner.token,
          body: { data: { type: 'workspaces', attributes: {} } },
        }),
        422,
      );
      expect(
        (await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token })).body.data.relationships['ssh-key'].data
          .id,
      ).to.equal(key.id);
    });
  });

  describe("a run's Terraform", () => {
    terraformWorkers(['run-pipeline']);

    /** What the plan (`key_sha256`, `key_present`) and the apply (the probe's lines) of a run see of the key. */
    const probeConfig = [
      'locals {',
      '  # The phase directory holds the configuration in config/ and the key in ssh/.',
      '  key_file = "${path.cwd}/../ssh/id_key"',
      '}',
      'output "key_present" { value = fileexists(local.key_file) }',
      'output "key_sha256" { value = fileexists(local.key_file) ? sha256(file(local.key_file)) : "none" }',
      'resource "terraform_data" "probe" {',
      '  provisioner "local-exec" {',
      '    command = <<-EOT',
      '      echo "ssh_command=$${GIT_SSH_COMMAND:-unset}"',
      '      [ -n "$GIT_SSH_COMMAND" ] || exit 0',
      '      eval "set -- $GIT_SSH_COMMAND"',
      '      echo "keyfile=$3 mode=$(stat -c %a "$3")"',
      '      echo "derived=$(ssh-keygen -y -f "$3")"',
      '      eval "$GIT_SSH_COMMAND -G git.example.com" | grep -i "^identityfile"',
      '    EOT',
      '  }',
      '}',
    ].join('\n');

    const runAndLogs = async (wsId: string) => {
      await uploadConfig(wsId, org.owner.token, { 'main.tf': `${probeConfig}\n` });
      const runId = await startRun(wsId, org.owner.token);
      const run = await waitForRun(runId, org.owner.token, ['applied', 'errored'], 90_000);
      const full = await api('GET', `/runs/${runId}?include=plan,apply`, { token: org.owner.token });
      const logOf = (type: string) =>
        readWholeLog(full.body.included.find((r: { type: string }) => r.type === type).attributes['log-read-url']);
      return { run, plan: await logOf('plans'), apply: await logOf('applies') };
    };

    it('gets the assigned key in a private file of its phase directory, with GIT_SSH_COMMAND using it, and nothing of it is left after the run', async () => {
      const ws = await createWorkspace(org, { 'auto-apply': true });
      const key = await newKey(org, ed25519.private.replace(/\n/g, '\r\n').trimEnd());
      expect((await assign(ws.id, key.id)).status).to.equal(200);
      const { run, plan, apply } = await runAndLogs(ws.id);
      expect(run.attributes.status, apply || plan).to.equal('applied');

      // The plan read the file the service wrote: the key as given, with Unix line ends and a final newline.
      const sha = createHash('sha256').update(ed25519.private).digest('hex');
      expect(plan).to.match(/key_present\s+=\s+true/);
      expect(plan).to.include(sha);
      // The apply's local-exec: the file is the sandbox user's only, ssh starts in the sandbox (it
      // looks its user up) and takes the key, which derives the public key made with it.
      expect(apply).to.match(/ssh_command=ssh -i /);
      expect(apply).to.include('StrictHostKeyChecking=accept-new').and.include('IdentitiesOnly=yes');
      expect(apply).to.match(/mode=600/);
      expect(apply).to.include(`derived=${ed25519.public.split(' ').slice(0, 2).join(' ')}`);
      const keyFile = /keyfile=(\/\S+) mode=/.exec(apply)![1];
      expect(apply).to.include(`identityfile ${keyFile}`);
      // The private key itself reaches no log.
      for (const line of ed25519.private.split('\n').slice(1, -2)) {
        expect(plan).not.to.include(line);
        expect(apply).not.to.include(line);
      }
      // The phase's directory (and the key in it) is removed once the phase ends, just after the run's move.
      await waitFor(() => !existsSync(dirname(dirname(keyFile))), `${keyFile}'s phase directory to be removed`, 10_000);
      expect(existsSync(keyFile), keyFile).to.equal(false);
    });

    it('gets no key and no GIT_SSH_COMMAND in a workspace without one', async () => {
      const ws = await createWorkspace(org, { 'auto-apply': true });
      const { run, plan, apply } = await runAndLogs(ws.id);
      expect(run.attributes.status, apply || plan).to.equal('applied');
      expect(plan).to.match(/key_present\s+=\s+false/);
      expect(apply).to.include('ssh_command=unset');
    });
  });
});
