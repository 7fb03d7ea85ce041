import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createPolicy, orgForSuite, uploadCode } from '../helpers/policy-fixtures.js';

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
        body: doc('policies', { name, description: 'A sample policy', enforce: [{ path: `${name}.sentinel`, mode: 'soft-mandatory' }] }),
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

      const opa = await createPolicy(org.name, org.token, { kind: 'opa', query: 'data.example.rule', 'enforcement-level': 'mandatory' });
      expect(opa.attributes.enforce).to.deep.equal([]);
      expect((await uploadCode(opa.id, org.token, 'package example\n')).status).to.equal(204);
      expect((await read(opa.id)).body.data.attributes.enforce).to.deep.equal([{ path: `${opa.attributes.name}.rego`, mode: 'mandatory' }]);
    });

    it('Update: a query sent for a Sentinel policy is ignored (200, query stays null); an OPA policy takes it', async () => {
      const sentinel = await createPolicy(org.name, org.token, { 'enforcement-level': 'hard-mandatory' });
      expect((await uploadCode(sentinel.id, org.token, 'main = rule { true }')).status).to.equal(204);
      const before = await read(sentinel.id);
      const res = await api('PATCH', `/policies/${sentinel.id}`, { token: org.token, body: doc('policies', { query: 'terraform.policy1.deny' }) });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({ kind: 'sentinel', query: null, name: before.body.data.attributes.name });
      expect(res.body.data.attributes.enforce).to.deep.equal(before.body.data.attributes.enforce);

      const opa = await createPolicy(org.name, org.token, { kind: 'opa', query: 'data.example.rule', 'enforcement-level': 'mandatory' });
      const changed = await api('PATCH', `/policies/${opa.id}`, { token: org.token, body: doc('policies', { query: 'terraform.policy1.deny' }) });
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
});
