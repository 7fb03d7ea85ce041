import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { startRun, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { createPolicy, createPolicySet, linkages, orgForSuite, uploadCode } from '../helpers/policy-fixtures.js';
import { policyWorkers, sentinelPolicy } from '../helpers/policy-runtimes.js';

const CONFIG = { 'main.tf': 'resource "terraform_data" "bucket" { input = { acl = "public-read" } }\n' };

type Org = Awaited<ReturnType<typeof createOrg>>;
type Check = {
  id: string;
  attributes: {
    status: string;
    scope: string;
    result: Record<string, unknown>;
    actions: Record<string, boolean>;
    permissions: Record<string, boolean>;
  };
};

/** A Sentinel policy with `code` in a new set of `org` (global, or attached to `attach`). */
async function sentinelSet(
  org: Org,
  level: string,
  code: string,
  set: Record<string, unknown>,
  workspaces?: string[],
): Promise<string> {
  const token = org.owner.token;
  const pol = await createPolicy(org.name, token, { name: uniq('pol'), 'enforcement-level': level });
  expect((await uploadCode(pol.id, token, code)).status).to.equal(204);
  const ps = await createPolicySet(
    org.name,
    token,
    { kind: 'sentinel', ...set },
    {
      policies: linkages('policies', [pol.id]),
      ...(workspaces ? { workspaces: linkages('workspaces', workspaces) } : {}),
    },
  );
  return ps.id;
}

/** Starts a run in the workspace and waits for one of `statuses`; returns the run and its checks. */
async function runWithChecks(org: Org, wsId: string, statuses: string[], attrs: Record<string, unknown> = {}) {
  const token = org.owner.token;
  const cv = await uploadConfig(wsId, token, CONFIG);
  const runId = await startRun(wsId, token, attrs, cv);
  const run = await waitForRun(runId, token, statuses, 90_000);
  const checks = await api('GET', `/runs/${runId}/policy-checks`, { token });
  expect(checks.status, checks.text).to.equal(200);
  return { runId, run, checks: checks.body.data as Check[] };
}

/** Requests as go-tfe sends them, and what its integration tests assert about the answers. */
describe('go-tfe compatibility: policies and policy sets', () => {
  const org = orgForSuite();
  const read = (id: string) => api('GET', `/policies/${id}`, { token: org.token });

  describe('policies', () => {
    it('Read: enforce is empty until the code is uploaded, then names the file and the mode (both kinds)', async () => {
      // go-tfe's create sends only the deprecated enforce.
      const name = `pol-${Date.now()}`;
      const created = await api('POST', `/organizations/${org.name}/policies`, {
        token: org.token,
        body: doc('policies', {
          name,
          description: 'A sample policy',
          enforce: [{ path: `${name}.sentinel`, mode: 'soft-mandatory' }],
        }),
      });
      expect(created.status, created.text).to.equal(200);
      const before = await read(created.body.data.id);
      expect(before.body.data.attributes.enforce).to.deep.equal([]);
      expect(before.body.data.attributes['enforcement-level']).to.equal('soft-mandatory');
      // The list item equals the create answer (go-tfe compares them whole).
      const list = await api('GET', `/organizations/${org.name}/policies?search[name]=${name}`, { token: org.token });
      expect(list.body.data).to.deep.equal([created.body.data]);

      expect((await uploadCode(created.body.data.id, org.token, 'main = rule { true }')).status).to.equal(204);
      const after = await read(created.body.data.id);
      expect(after.body.data.attributes.enforce).to.deep.equal([{ path: `${name}.sentinel`, mode: 'soft-mandatory' }]);

      const opa = await createPolicy(org.name, org.token, {
        kind: 'opa',
        query: 'data.example.rule',
        'enforcement-level': 'mandatory',
      });
      expect(opa.attributes.enforce).to.deep.equal([]);
      expect((await uploadCode(opa.id, org.token, 'package example\n')).status).to.equal(204);
      expect((await read(opa.id)).body.data.attributes.enforce).to.deep.equal([
        { path: `${opa.attributes.name}.rego`, mode: 'mandatory' },
      ]);
    });

    it('Update: a query sent for a Sentinel policy is ignored (200, query stays null); an OPA policy takes it', async () => {
      const sentinel = await createPolicy(org.name, org.token, { 'enforcement-level': 'hard-mandatory' });
      expect((await uploadCode(sentinel.id, org.token, 'main = rule { true }')).status).to.equal(204);
      const before = await read(sentinel.id);
      const res = await api('PATCH', `/policies/${sentinel.id}`, {
        token: org.token,
        body: doc('policies', { query: 'terraform.policy1.deny' }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({
        kind: 'sentinel',
        query: null,
        name: before.body.data.attributes.name,
      });
      expect(res.body.data.attributes.enforce).to.deep.equal(before.body.data.attributes.enforce);

      const opa = await createPolicy(org.name, org.token, {
        kind: 'opa',
        query: 'data.example.rule',
        'enforcement-level': 'mandatory',
      });
      const changed = await api('PATCH', `/policies/${opa.id}`, {
        token: org.token,
        body: doc('policies', { query: 'terraform.policy1.deny' }),
      });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body.data.attributes.query).to.equal('terraform.policy1.deny');
    });

    it('Create: a query on a Sentinel policy is still refused', async () => {
      const res = await api('POST', `/organizations/${org.name}/policies`, {
        token: org.token,
        body: doc('policies', { name: `q-${Date.now()}`, query: 'data.x', 'enforcement-level': 'advisory' }),
      });
      expect(res.status, res.text).to.equal(422);
    });
  });

  describe('policy sets', () => {
    const showSet = (id: string) => api('GET', `/policy-sets/${id}`, { token: org.token });
    const patchSet = (id: string, attrs: Record<string, unknown>) =>
      api('PATCH', `/policy-sets/${id}`, { token: org.token, body: doc('policy-sets', attrs) });

    it('Create: overridable is taken for both kinds and defaults to false', async () => {
      const opa = await createPolicySet(org.name, org.token, {
        kind: 'opa',
        global: true,
        overridable: true,
        description: 'Policies in this set will be checked in ALL workspaces!',
      });
      expect(opa.attributes).to.include({ kind: 'opa', global: true, overridable: true });
      const opaDefault = await createPolicySet(org.name, org.token, { kind: 'opa', global: true });
      expect(opaDefault.attributes.overridable).to.equal(false);
      // A legacy Sentinel set answers null (overriding follows each policy's level there); an agent-enabled one what was sent.
      const legacy = await createPolicySet(org.name, org.token, { kind: 'sentinel', overridable: true });
      expect(legacy.attributes.overridable).to.equal(null);
      const sentinel = await createPolicySet(org.name, org.token, {
        kind: 'sentinel',
        'agent-enabled': true,
        overridable: true,
      });
      expect(sentinel.attributes).to.include({ kind: 'sentinel', overridable: true });
      expect((await showSet(sentinel.id)).body.data.attributes.overridable).to.equal(true);
      const off = await patchSet(sentinel.id, { overridable: false });
      expect(off.status, off.text).to.equal(200);
      expect(off.body.data.attributes.overridable).to.equal(false);
    });

    it('Create and Update: agent-enabled and a registered policy-tool-version are stored and returned; a legacy Sentinel set answers null for the version', async () => {
      const admin = harness().adminToken;
      const register = async (tool: 'opa' | 'sentinel', version: string) => {
        const res = await api('POST', `/admin/${tool}-versions`, {
          token: admin,
          body: doc(`${tool}-versions`, { version, url: 'https://example.test/tool', sha: 'ab'.repeat(32) }),
        });
        expect(res.status, res.text).to.equal(201);
      };
      const [v1, v2, v3] = [`0.24.${Date.now()}`, `0.26.${Date.now()}`, `1.4.${Date.now()}`];
      await register('sentinel', v1);
      await register('sentinel', v2);
      await register('opa', v3);

      const plain = await createPolicySet(org.name, org.token, { kind: 'sentinel' });
      expect(plain.attributes).to.include({ 'agent-enabled': false, 'policy-tool-version': null });

      const pinned = await createPolicySet(org.name, org.token, {
        kind: 'sentinel',
        'agent-enabled': true,
        'policy-tool-version': v1,
      });
      expect(pinned.attributes).to.include({
        kind: 'sentinel',
        'agent-enabled': true,
        'policy-tool-version': v1,
        global: false,
      });
      expect((await showSet(pinned.id)).body.data.attributes).to.include({
        'agent-enabled': true,
        'policy-tool-version': v1,
      });

      const updated = await patchSet(pinned.id, { 'policy-tool-version': v2 });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.data.attributes).to.include({ 'agent-enabled': true, 'policy-tool-version': v2 });
      const legacy = await patchSet(pinned.id, { 'agent-enabled': false, description: 'only this' });
      expect(legacy.body.data.attributes).to.include({
        'agent-enabled': false,
        'policy-tool-version': null,
        overridable: null,
        description: 'only this',
      });

      const opa = await createPolicySet(org.name, org.token, {
        kind: 'opa',
        'agent-enabled': true,
        'policy-tool-version': v3,
      });
      expect(opa.attributes).to.include({ 'agent-enabled': true, 'policy-tool-version': v3 });
      const bad = await patchSet(opa.id, { 'policy-tool-version': 'v1 please' });
      expect(bad.status, bad.text).to.equal(422);
      // A version of the other runtime is not one of this set's.
      const other = await patchSet(opa.id, { 'policy-tool-version': v1 });
      expect(other.status, other.text).to.equal(422);
      expect(other.body.errors[0].detail).to.match(/not a registered OPA version; known: latest, .*0\.59\.0/);
    });

    it('workspace exclusions: named at create, added and removed through the relationship, returned as workspace-exclusions', async () => {
      const ws1 = await createWorkspace(org);
      const ws2 = await createWorkspace(org);
      const ws3 = await createWorkspace(org);
      const pol = await createPolicy(org.name, org.token);
      const created = await api('POST', `/organizations/${org.name}/policy-sets`, {
        token: org.token,
        body: doc(
          'policy-sets',
          { name: uniq('exclusion-policy-set') },
          { policies: linkages('policies', [pol.id]), 'workspace-exclusions': linkages('workspaces', [ws1.id]) },
        ),
      });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.id;
      expect(created.body.data.attributes['policy-count']).to.equal(1);
      expect(created.body.data.relationships['workspace-exclusions'].data).to.deep.equal([
        { type: 'workspaces', id: ws1.id },
      ]);

      const path = `/policy-sets/${id}/relationships/workspace-exclusions`;
      const add = await api('POST', path, { token: org.token, body: linkages('workspaces', [ws2.id, ws3.id]) });
      expect(add.status, add.text).to.equal(204);
      const read = await showSet(id);
      expect(
        read.body.data.relationships['workspace-exclusions'].data.map((d: { id: string }) => d.id),
      ).to.have.members([ws1.id, ws2.id, ws3.id]);
      expect(read.body.data.attributes['workspace-count']).to.equal(0);

      // Removing what is not excluded succeeds too (go-tfe removes attached workspaces this way).
      const other = await createWorkspace(org);
      const remove = await api('DELETE', path, {
        token: org.token,
        body: linkages('workspaces', [ws1.id, ws2.id, ws3.id, other.id]),
      });
      expect(remove.status, remove.text).to.equal(204);
      expect((await showSet(id)).body.data.relationships['workspace-exclusions'].data).to.deep.equal([]);

      const foreign = await createWorkspace(await createOrg());
      const refused = await api('POST', path, { token: org.token, body: linkages('workspaces', [foreign.id]) });
      expect(refused.status, refused.text).to.equal(422);
      const wrongType = await api('POST', path, { token: org.token, body: linkages('policies', [pol.id]) });
      expect(wrongType.status, wrongType.text).to.equal(422);
    });
  });

  describe('policy checks of runs (real terraform plans)', function () {
    this.timeout(240_000);
    policyWorkers();

    it('policy sets are organization-level: a run gets one check, scope organization, for global and attached sets alike', async () => {
      const runOrg = await createOrg();
      const ws = await createWorkspace(runOrg, { 'auto-apply': false });
      await sentinelSet(runOrg, 'soft-mandatory', sentinelPolicy(true, 'global ok'), { global: true });
      await sentinelSet(runOrg, 'soft-mandatory', sentinelPolicy(true, 'attached ok'), {}, [ws.id]);
      const { run, checks } = await runWithChecks(
        runOrg,
        ws.id,
        ['planned_and_finished', 'errored', 'policy_override'],
        { 'plan-only': true },
      );
      expect(run.attributes.status).to.equal('planned_and_finished');
      expect(checks).to.have.length(1);
      expect(checks[0].attributes).to.include({ status: 'passed', scope: 'organization' });
      expect(checks[0].attributes.result).to.include({ passed: 2, 'total-failed': 0 });
    });

    it('a policy set does not apply to the workspaces it excludes, global or attached', async () => {
      const runOrg = await createOrg();
      const excluded = await createWorkspace(runOrg, { 'auto-apply': false });
      const included = await createWorkspace(runOrg, { 'auto-apply': false });
      const globalSet = await sentinelSet(runOrg, 'hard-mandatory', sentinelPolicy(false, 'global says no'), {
        global: true,
      });
      const attachedSet = await sentinelSet(runOrg, 'hard-mandatory', sentinelPolicy(false, 'attached says no'), {}, [
        excluded.id,
        included.id,
      ]);
      for (const set of [globalSet, attachedSet]) {
        const res = await api('POST', `/policy-sets/${set}/relationships/workspace-exclusions`, {
          token: runOrg.owner.token,
          body: linkages('workspaces', [excluded.id]),
        });
        expect(res.status, res.text).to.equal(204);
      }
      const skipped = await runWithChecks(runOrg, excluded.id, ['planned_and_finished', 'errored'], {
        'plan-only': true,
      });
      expect(skipped.run.attributes.status).to.equal('planned_and_finished');
      expect(skipped.checks).to.deep.equal([]);
      const checked = await runWithChecks(runOrg, included.id, ['planned_and_finished', 'errored'], {
        'plan-only': true,
      });
      expect(checked.run.attributes.status).to.equal('errored');
      expect(checked.checks[0].attributes.result).to.include({ 'hard-failed': 2 });
    });

    it('an errored check in an overridable set is not overridable: the flag, the output and the override (409) agree', async () => {
      const runOrg = await createOrg();
      const token = runOrg.owner.token;
      const ws = await createWorkspace(runOrg, { 'auto-apply': false });
      // A soft-mandatory Sentinel policy (overridable when it fails) that cannot be evaluated.
      const pol = await createPolicy(runOrg.name, token, { 'enforcement-level': 'soft-mandatory' });
      expect((await uploadCode(pol.id, token, 'this is not sentinel at all (\n')).status).to.equal(204);
      await createPolicySet(
        runOrg.name,
        token,
        { kind: 'sentinel', global: true, overridable: true },
        { policies: linkages('policies', [pol.id]) },
      );
      const { run, checks } = await runWithChecks(runOrg, ws.id, ['errored', 'policy_override', 'policy_checked']);
      expect(run.attributes.status).to.equal('errored');
      expect(checks[0].attributes).to.deep.include({
        status: 'errored',
        actions: { 'is-overridable': false },
        permissions: { 'can-override': true },
      });
      const text = (await api('GET', `/policy-checks/${checks[0].id}/output`, { token })).text;
      expect(text).to.include('cannot be overridden');
      expect(text).not.to.include('can be overridden');
      const override = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token });
      expect(override.status, override.text).to.equal(409);
    });

    it('a soft-failed check is overridable while its run waits, and no longer once the run was discarded', async () => {
      const runOrg = await createOrg();
      const token = runOrg.owner.token;
      const ws = await createWorkspace(runOrg, { 'auto-apply': false });
      await sentinelSet(runOrg, 'soft-mandatory', sentinelPolicy(false, 'needs a look'), { global: true });
      const { runId, run, checks } = await runWithChecks(runOrg, ws.id, [
        'policy_override',
        'errored',
        'policy_checked',
      ]);
      expect(run.attributes.status).to.equal('policy_override');
      expect(checks[0].attributes).to.deep.include({
        status: 'soft_failed',
        actions: { 'is-overridable': true },
        permissions: { 'can-override': true },
      });

      const discard = await api('POST', `/runs/${runId}/actions/discard`, { token, body: {} });
      expect(discard.status, discard.text).to.equal(202);
      await waitForRun(runId, token, ['discarded']);
      const after = await api('GET', `/policy-checks/${checks[0].id}`, { token });
      expect(after.body.data.attributes).to.deep.include({
        status: 'soft_failed',
        actions: { 'is-overridable': false },
        permissions: { 'can-override': true },
      });
      const listed = await api('GET', `/runs/${runId}/policy-checks`, { token });
      expect(listed.body.data[0].attributes.actions['is-overridable']).to.equal(false);
      const override = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token });
      expect(override.status, override.text).to.equal(409);
    });
  });
});
