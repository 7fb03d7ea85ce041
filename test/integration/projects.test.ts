import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };
const rel = (type: string, id: string) => ({ data: { type, id } });
const ids = (res: ApiResponse): string[] => res.body.data.map((r: { id: string }) => r.id);

/** What go-tfe sends to create a project (ProjectCreateOptions). */
const projectBody = (name: string, extra: Record<string, unknown> = {}, relationships?: Record<string, unknown>) =>
  doc('projects', { name, ...extra }, relationships);

async function newProject(org: Org, name = uniq('prj')): Promise<{ id: string; attributes: Record<string, unknown> }> {
  const res = await api('POST', `/organizations/${org.name}/projects`, {
    token: org.owner.token,
    body: projectBody(name),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

async function memberOnTeam(org: Org): Promise<{ user: TestUser; teamId: string }> {
  const user = await createUser();
  await joinOrg(org, user);
  const teamId = await createTeam(org, { visibility: 'organization' });
  const res = await api('POST', `/teams/${teamId}/relationships/users`, {
    token: org.owner.token,
    body: { data: [{ type: 'users', id: user.username }] },
  });
  expect(res.status, res.text).to.equal(204);
  return { user, teamId };
}

const grantProject = (org: Org, teamId: string, projectId: string, attrs: Record<string, unknown>) =>
  api('POST', '/team-projects', {
    token: org.owner.token,
    body: doc('team-projects', attrs, { team: rel('teams', teamId), project: rel('projects', projectId) }),
  });

describe('projects', () => {
  let org: Org;
  before(async () => {
    org = await createOrg();
  });

  describe('the default project and the project list', () => {
    it('gives a new organization its "Default Project", lists it with q, filter[names] and paging', async () => {
      const o = await createOrg();
      const a = await newProject(o, 'alpha one');
      const b = await newProject(o, 'beta-two');
      const all = await api('GET', `/organizations/${o.name}/projects`, { token: o.owner.token });
      expect(all.status, all.text).to.equal(200);
      expect(all.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).to.deep.equal([
        'Default Project',
        'alpha one',
        'beta-two',
      ]);
      expect(all.body.meta.pagination).to.include({ 'current-page': 1, 'total-count': 3 });
      expect(all.body.data[0].attributes['is-default']).to.equal(true);
      expect(all.body.data[0].attributes.permissions['can-destroy']).to.equal(false);
      const q = await api('GET', `/organizations/${o.name}/projects?q=Default`, { token: o.owner.token });
      expect(q.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).to.deep.equal([
        'Default Project',
      ]);
      const named = await api('GET', `/organizations/${o.name}/projects?filter%5Bnames%5D=beta-two`, {
        token: o.owner.token,
      });
      expect(ids(named)).to.deep.equal([b.id]);
      const page = await api('GET', `/organizations/${o.name}/projects?page%5Bnumber%5D=2&page%5Bsize%5D=1`, {
        token: o.owner.token,
      });
      expect(ids(page)).to.deep.equal([a.id]);
      expect(page.body.meta.pagination).to.include({ 'current-page': 2, 'total-count': 3 });
    });

    it('puts a workspace created without a project into the default project', async () => {
      const ws = await createWorkspace(org);
      const res = await api('GET', `/workspaces/${ws.id}?include=project`, { token: org.owner.token });
      const projectId = res.body.data.relationships.project.data.id;
      expect(projectId).to.match(/^prj-/);
      expect(res.body.included[0]).to.include({ type: 'projects', id: projectId });
      expect(res.body.included[0].attributes.name).to.equal('Default Project');
    });
  });

  describe('create, read, update, delete', () => {
    it('creates a project as go-tfe sends it and reads the same document back', async () => {
      const res = await api('POST', `/organizations/${org.name}/projects`, {
        token: org.owner.token,
        body: projectBody('foo', { description: 'qux' }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.id).to.match(/^prj-/);
      expect(res.body.data.attributes).to.include({ name: 'foo', description: 'qux', 'workspace-count': 0 });
      const read = await api('GET', `/projects/${res.body.data.id}`, { token: org.owner.token });
      expect(read.body.data).to.deep.equal(res.body.data);
      expect(read.body.data.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
    });

    it('refuses an invalid or taken name with a 422 as TFE words it, and writes nothing', async () => {
      const bad = await api('POST', `/organizations/${org.name}/projects`, {
        token: org.owner.token,
        body: projectBody('! / nope'),
      });
      expectError(bad, 422);
      expect(bad.body.errors[0]).to.include({ title: 'invalid attribute' });
      expect(bad.body.errors[0].detail).to.match(/^Name may only contain/);
      const p = await newProject(org);
      const taken = await api('POST', `/organizations/${org.name}/projects`, {
        token: org.owner.token,
        body: projectBody(p.attributes.name as string),
      });
      expectError(taken, 422, /taken/);
      const patched = await api('PATCH', `/projects/${p.id}`, {
        token: org.owner.token,
        body: doc('projects', { name: '! / nope' }),
      });
      expectError(patched, 422, /^Name may only contain/);
      expect(
        await harness().rt.db('projects').where({ organization_name: org.name, name: '! / nope' }).first(),
      ).to.equal(undefined);
    });

    it('updates the name and description', async () => {
      const p = await newProject(org);
      const res = await api('PATCH', `/projects/${p.id}`, {
        token: org.owner.token,
        body: doc('projects', { name: 'new project name', description: 'updated description' }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({ name: 'new project name', description: 'updated description' });
    });

    it('keeps tag bindings given at creation and shows them with include=effective_tag_bindings', async () => {
      const body = projectBody(
        'project-with-tags',
        {},
        { 'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: 'foo', value: 'bar' } }] } },
      );
      const created = await api('POST', `/organizations/${org.name}/projects`, { token: org.owner.token, body });
      expect(created.status, created.text).to.equal(201);
      const res = await api('GET', `/projects/${created.body.data.id}?include=effective_tag_bindings`, {
        token: org.owner.token,
      });
      expect(res.body.data.relationships['effective-tag-bindings'].data).to.have.length(1);
      expect(res.body.included).to.have.length(1);
      expect(res.body.included[0]).to.deep.include({
        type: 'effective-tag-bindings',
        attributes: { key: 'foo', value: 'bar' },
      });
    });

    it('refuses to delete the default project or one with workspaces (409), deletes an empty one, then answers 404', async () => {
      const list = await api('GET', `/organizations/${org.name}/projects?q=Default`, { token: org.owner.token });
      const defaultId = list.body.data[0].id;
      expectError(await api('DELETE', `/projects/${defaultId}`, { token: org.owner.token }), 409, /default project/);
      const p = await newProject(org);
      const ws = await createWorkspace(org, {});
      const moved = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: doc('workspaces', {}, { project: rel('projects', p.id) }),
      });
      expect(moved.status, moved.text).to.equal(200);
      expectError(await api('DELETE', `/projects/${p.id}`, { token: org.owner.token }), 409, /must be empty/);
      expect(await harness().rt.db('projects').where({ id: p.id }).first()).to.not.equal(undefined);
      expect((await api('DELETE', `/workspaces/${ws.id}`, { token: org.owner.token })).status).to.equal(204);
      expect((await api('DELETE', `/projects/${p.id}`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `/projects/${p.id}`, { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/projects/${p.id}`, { token: org.owner.token }), 404);
    });

    it("answers 404 for another organization's project, to reads and writes alike", async () => {
      const other = await createOrg();
      const p = await newProject(org);
      expectError(await api('GET', `/projects/${p.id}`, { token: other.owner.token }), 404);
      expectError(
        await api('PATCH', `/projects/${p.id}`, {
          token: other.owner.token,
          body: doc('projects', { name: 'stolen' }),
        }),
        404,
      );
      expectError(await api('DELETE', `/projects/${p.id}`, { token: other.owner.token }), 404);
      // Nor may a workspace of the other organization be put into it.
      const theirs = await createWorkspace(other);
      expectError(
        await api('PATCH', `/workspaces/${theirs.id}`, {
          token: other.owner.token,
          body: doc('workspaces', {}, { project: rel('projects', p.id) }),
        }),
        404,
      );
      expectError(
        await api('POST', `/organizations/${other.name}/workspaces`, {
          token: other.owner.token,
          body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', p.id) }),
        }),
        404,
      );
    });
  });

  describe("workspaces' project", () => {
    it('creates a workspace in the project named, moves it, and filters the list by filter[project][id]', async () => {
      const a = await newProject(org);
      const b = await newProject(org);
      const created = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', a.id) }),
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.relationships.project.data).to.deep.equal({ type: 'projects', id: a.id });
      const inA = await api('GET', `/organizations/${org.name}/workspaces?filter%5Bproject%5D%5Bid%5D=${a.id}`, {
        token: org.owner.token,
      });
      expect(ids(inA)).to.deep.equal([created.body.data.id]);
      const moved = await api('PATCH', `/workspaces/${created.body.data.id}`, {
        token: org.owner.token,
        body: doc('workspaces', {}, { project: rel('projects', b.id) }),
      });
      expect(moved.body.data.relationships.project.data.id).to.equal(b.id);
      expect(
        ids(
          await api('GET', `/organizations/${org.name}/workspaces?filter%5Bproject%5D%5Bid%5D=${a.id}`, {
            token: org.owner.token,
          }),
        ),
      ).to.deep.equal([]);
      expect(
        (await api('GET', `/projects/${b.id}`, { token: org.owner.token })).body.data.attributes['workspace-count'],
      ).to.equal(1);
    });
  });

  describe('team project access', () => {
    it("adds, reads, lists, updates and removes a team's access as go-tfe sends it", async () => {
      const p = await newProject(org);
      const t1 = await createTeam(org, { visibility: 'organization' });
      const t2 = await createTeam(org, { visibility: 'organization' });
      const admin = await grantProject(org, t1, p.id, { access: 'admin' });
      expect(admin.status, admin.text).to.equal(201);
      expect(admin.body.data.id).to.match(/^tprj-/);
      expect(admin.body.data.attributes['project-access']).to.deep.equal({
        settings: 'delete',
        teams: 'manage',
        'variable-sets': 'write',
      });
      expectError(await grantProject(org, t1, p.id, { access: 'read' }), 422, /already has access/);
      const custom = await grantProject(org, t2, p.id, {
        access: 'custom',
        'project-access': { settings: 'update', teams: 'manage' },
        'workspace-access': {
          runs: 'apply',
          'sentinel-mocks': 'read',
          'state-versions': 'write',
          variables: 'write',
          create: true,
          locking: true,
          move: true,
          delete: false,
          'run-tasks': false,
        },
      });
      expect(custom.status, custom.text).to.equal(201);
      expect(custom.body.data.attributes['workspace-access']).to.include({
        runs: 'apply',
        create: true,
        delete: false,
      });
      const list = await api(
        'GET',
        `/team-projects?filter%5Bproject%5D%5Bid%5D=${p.id}&page%5Bnumber%5D=999&page%5Bsize%5D=100`,
        { token: org.owner.token },
      );
      expect(list.body.data).to.deep.equal([]);
      expect(list.body.meta.pagination).to.include({ 'current-page': 999, 'total-count': 2 });
      // A custom access keeps the permissions an update leaves out.
      const changed = await api('PATCH', `/team-projects/${custom.body.data.id}`, {
        token: org.owner.token,
        body: doc('team-projects', { access: 'custom', 'workspace-access': { create: false } }),
      });
      expect(changed.body.data.attributes['workspace-access']).to.include({
        runs: 'apply',
        create: false,
        locking: true,
        move: true,
      });
      expect(changed.body.data.attributes['project-access']).to.include({ settings: 'update', teams: 'manage' });
      const read = await api('PATCH', `/team-projects/${admin.body.data.id}`, {
        token: org.owner.token,
        body: doc('team-projects', { access: 'read' }),
      });
      expect(read.body.data.attributes.access).to.equal('read');
      expectError(
        await api('PATCH', `/team-projects/${admin.body.data.id}`, {
          token: org.owner.token,
          body: doc('team-projects', { access: 'custom', 'project-access': { teams: '! / nope' } }),
        }),
        422,
      );
      expect((await api('DELETE', `/team-projects/${admin.body.data.id}`, { token: org.owner.token })).status).to.equal(
        204,
      );
      expectError(await api('GET', `/team-projects/${admin.body.data.id}`, { token: org.owner.token }), 404);
      expectError(await api('GET', '/team-projects', { token: org.owner.token }), 400);
    });

    it("grants the project's workspaces by level: read reads, maintain creates workspaces in it, a team without access gets 404", async () => {
      const p = await newProject(org);
      const ws = (
        await api('POST', `/organizations/${org.name}/workspaces`, {
          token: org.owner.token,
          body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', p.id) }),
        })
      ).body.data;
      const reader = await memberOnTeam(org);
      const maintainer = await memberOnTeam(org);
      const bystander = await memberOnTeam(org);
      expect((await grantProject(org, reader.teamId, p.id, { access: 'read' })).status).to.equal(201);
      expect((await grantProject(org, maintainer.teamId, p.id, { access: 'maintain' })).status).to.equal(201);

      const seen = await api('GET', `/workspaces/${ws.id}`, { token: reader.user.token });
      expect(seen.status, seen.text).to.equal(200);
      expect(seen.body.data.attributes.permissions).to.include({
        'can-read-variable': true,
        'can-update-variable': false,
        'can-queue-run': false,
      });
      expectError(
        await api('POST', `/workspaces/${ws.id}/vars`, {
          token: reader.user.token,
          body: doc('vars', { key: 'k', value: 'v', category: 'env' }),
        }),
        404,
      );
      expectError(
        await api('PATCH', `/projects/${p.id}`, {
          token: reader.user.token,
          body: doc('projects', { name: 'renamed' }),
        }),
        404,
      );

      // Maintain: admin on the project's workspaces, and creating workspaces in it without manage-workspaces.
      const made = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: maintainer.user.token,
        body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', p.id) }),
      });
      expect(made.status, made.text).to.equal(201);
      expectError(
        await api('POST', `/organizations/${org.name}/workspaces`, {
          token: maintainer.user.token,
          body: doc('workspaces', { name: uniq('ws') }),
        }),
        404,
      );
      expect(
        (
          await api('PATCH', `/workspaces/${ws.id}`, {
            token: maintainer.user.token,
            body: doc('workspaces', { description: 'by a maintainer' }),
          })
        ).status,
      ).to.equal(200);

      for (const path of [
        `/workspaces/${ws.id}`,
        `/projects/${p.id}`,
        `/team-projects?filter%5Bproject%5D%5Bid%5D=${p.id}`,
      ]) {
        expectError(await api('GET', path, { token: bystander.user.token }), 404);
      }
      expect(
        ids(await api('GET', `/organizations/${org.name}/workspaces`, { token: bystander.user.token })),
      ).to.not.include(ws.id);
      // A member sees only its own team's access to the project.
      const own = await api('GET', `/team-projects?filter%5Bproject%5D%5Bid%5D=${p.id}`, { token: reader.user.token });
      expect(
        own.body.data.map((r: { relationships: { team: { data: { id: string } } } }) => r.relationships.team.data.id),
      ).to.deep.equal([reader.teamId]);
    });
  });

  describe('variable sets and policy sets applied to projects', () => {
    it("applies a variable set to projects and back, lists a project's sets, and a workspace of the project lists it", async () => {
      const p = await newProject(org);
      const ws = (
        await api('POST', `/organizations/${org.name}/workspaces`, {
          token: org.owner.token,
          body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', p.id) }),
        })
      ).body.data;
      const set = (
        await api('POST', `/organizations/${org.name}/varsets`, {
          token: org.owner.token,
          body: doc('varsets', { name: uniq('vs'), global: false }),
        })
      ).body.data;
      const apply = await api('POST', `/varsets/${set.id}/relationships/projects`, {
        token: org.owner.token,
        body: { data: [{ type: 'projects', id: p.id }] },
      });
      expect(apply.status, apply.text).to.equal(204);
      const read = await api('GET', `/varsets/${set.id}`, { token: org.owner.token });
      expect(read.body.data.relationships.projects.data).to.deep.equal([{ type: 'projects', id: p.id }]);
      expect(read.body.data.attributes['project-count']).to.equal(1);
      expect(ids(await api('GET', `/projects/${p.id}/varsets`, { token: org.owner.token }))).to.deep.equal([set.id]);
      expect(ids(await api('GET', `/workspaces/${ws.id}/varsets`, { token: org.owner.token }))).to.include(set.id);
      // A project of another organization is refused and nothing changes.
      const foreign = await newProject(await createOrg());
      expectError(
        await api('POST', `/varsets/${set.id}/relationships/projects`, {
          token: org.owner.token,
          body: { data: [{ type: 'projects', id: foreign.id }] },
        }),
        422,
      );
      expect(
        (
          await api('DELETE', `/varsets/${set.id}/relationships/projects`, {
            token: org.owner.token,
            body: { data: [{ type: 'projects', id: p.id }] },
          })
        ).status,
      ).to.equal(204);
      expect(
        (await api('GET', `/varsets/${set.id}`, { token: org.owner.token })).body.data.relationships.projects.data,
      ).to.deep.equal([]);
    });

    it('adds projects to a policy set and removes them; a run in the project is checked by it', async () => {
      const p = await newProject(org);
      const ws = (
        await api('POST', `/organizations/${org.name}/workspaces`, {
          token: org.owner.token,
          body: doc('workspaces', { name: uniq('ws') }, { project: rel('projects', p.id) }),
        })
      ).body.data;
      const set = (
        await api('POST', `/organizations/${org.name}/policy-sets`, {
          token: org.owner.token,
          body: doc(
            'policy-sets',
            { name: uniq('ps'), kind: 'opa' },
            { projects: { data: [{ type: 'projects', id: p.id }] } },
          ),
        })
      ).body.data;
      expect(set.attributes['project-count']).to.equal(1);
      const { applicableSets } = await import('../../shared/policies/repo.js');
      expect((await applicableSets(harness().rt.db, org.name, ws.id)).map((s) => s.id)).to.include(set.id);
      expect(
        (
          await api('DELETE', `/policy-sets/${set.id}/relationships/projects`, {
            token: org.owner.token,
            body: { data: [{ type: 'projects', id: p.id }] },
          })
        ).status,
      ).to.equal(204);
      const read = await api('GET', `/policy-sets/${set.id}`, { token: org.owner.token });
      expect(read.body.data.attributes['project-count']).to.equal(0);
      expect((await applicableSets(harness().rt.db, org.name, ws.id)).map((s) => s.id)).to.not.include(set.id);
      expect(
        (
          await api('POST', `/policy-sets/${set.id}/relationships/projects`, {
            token: org.owner.token,
            body: { data: [{ type: 'projects', id: p.id }] },
          })
        ).status,
      ).to.equal(204);
      expect(
        (await api('GET', `/policy-sets/${set.id}`, { token: org.owner.token })).body.data.relationships.projects.data,
      ).to.deep.equal([{ type: 'projects', id: p.id }]);
    });
  });
});
