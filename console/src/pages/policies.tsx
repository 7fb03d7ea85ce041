import { useState } from 'react';
import { doc, type AttributesOf, type ListDoc } from '../api.js';
import { appPath } from '../router.js';
import { Checkbox, Empty, Field, Form, Page, Select, Show, Table, Time, str, useOrgPermissions } from '../ui.js';
import { useApi, write } from '../data.js';

/** Creates a policy set: Sentinel or OPA, for every workspace or for those it is later given. */
function NewPolicySet({ org }: { org: string }) {
  const [form, setForm] = useState<
    Required<Pick<AttributesOf<'policy-set.create'>, 'name' | 'kind' | 'global' | 'overridable'>> & {
      description: string;
    }
  >({ name: '', description: '', kind: 'sentinel', global: false, overridable: false });
  return (
    <section className="card" aria-labelledby="new-set">
      <h2 id="new-set">Create a policy set</h2>
      <Form
        submit="Create policy set"
        done="Created."
        onSubmit={async () => {
          const { overridable, ...rest } = form;
          await write(
            'POST',
            `/organizations/${encodeURIComponent(org)}/policy-sets`,
            doc('policy-set.create', 'policy-sets', { ...rest, ...(form.kind === 'opa' ? { overridable } : {}) }),
          );
          setForm({ ...form, name: '', description: '' });
        }}
      >
        <Field label="Policy set name">
          <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label="Policy set description">
          <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </Field>
        <Select
          label="Policy framework"
          value={form.kind}
          options={[
            ['sentinel', 'Sentinel'],
            ['opa', 'Open Policy Agent'],
          ]}
          onChange={(kind) => setForm({ ...form, kind })}
        />
        <Checkbox
          label="Enforce on every workspace"
          checked={form.global}
          onChange={(global) => setForm({ ...form, global })}
        />
        {form.kind === 'opa' && (
          <Checkbox
            label="Mandatory failures may be overridden"
            checked={form.overridable}
            onChange={(overridable) => setForm({ ...form, overridable })}
          />
        )}
      </Form>
    </section>
  );
}

/** The organization's policies and policy sets. */
export function PoliciesPage({ org }: { org: string }) {
  const base = `/organizations/${encodeURIComponent(org)}`;
  const policies = useApi<ListDoc>(`${base}/policies?page[size]=100`);
  const sets = useApi<ListDoc>(`${base}/policy-sets?page[size]=100`);
  const perms = useOrgPermissions(org);
  return (
    <Page title="Policies" crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <section className="card" aria-labelledby="sets">
        <h2 id="sets">Policy sets</h2>
        <Show loaded={sets} what="Loading policy sets">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No policy sets.</Empty>
            ) : (
              <Table head={['Name', 'Kind', 'Applies to', 'Policies', 'Updated']} caption="Policy sets">
                {d.data.map((s) => (
                  <tr key={s.id} id={s.id}>
                    <td>
                      <strong>{str(s.attributes.name)}</strong>
                      {s.attributes.description ? (
                        <div className="muted small">{str(s.attributes.description)}</div>
                      ) : null}
                    </td>
                    <td>{str(s.attributes.kind)}</td>
                    <td>
                      {s.attributes.global ? 'every workspace' : `${str(s.attributes['workspace-count'])} workspace(s)`}
                    </td>
                    <td>{str(s.attributes['policy-count'])}</td>
                    <td>
                      <Time at={s.attributes['updated-at']} />
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
      <section className="card" aria-labelledby="policies">
        <h2 id="policies">Policies</h2>
        <Show loaded={policies} what="Loading policies">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No policies.</Empty>
            ) : (
              <Table head={['Name', 'Kind', 'Enforcement', 'In sets', 'Updated']} caption="Policies">
                {d.data.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <strong>{str(p.attributes.name)}</strong>
                      {p.attributes.description ? (
                        <div className="muted small">{str(p.attributes.description)}</div>
                      ) : null}
                    </td>
                    <td>{str(p.attributes.kind)}</td>
                    <td>{str(p.attributes['enforcement-level'])}</td>
                    <td>{str(p.attributes['policy-set-count'])}</td>
                    <td>
                      <Time at={p.attributes['updated-at']} />
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
      {perms['can-manage-policies'] && <NewPolicySet org={org} />}
    </Page>
  );
}
