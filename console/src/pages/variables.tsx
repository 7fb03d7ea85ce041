import { useState } from 'react';
import { doc, relatedIds, type AttributesOf, type Doc, type ListDoc, type Resource } from '../api.js';
import { useApi, write } from '../data.js';
import { Link, appPath, navigate } from '../router.js';
import {
  ActionButton,
  Checkbox,
  DialogButton,
  Empty,
  Field,
  Form,
  Page,
  Select,
  Show,
  Table,
  str,
  useOrgPermissions,
} from '../ui.js';

/** A variable's fields in a form, as the variable schemas name and type them. */
type VariableFields = Required<Pick<AttributesOf<'variable.create'>, 'key' | 'category' | 'sensitive' | 'hcl'>> & {
  value: string;
  description: string;
};

const BLANK: VariableFields = {
  key: '',
  value: '',
  description: '',
  category: 'terraform',
  sensitive: false,
  hcl: false,
};

const fieldsOf = (v: Resource): VariableFields => ({
  key: str(v.attributes.key),
  value: str(v.attributes.value),
  description: str(v.attributes.description),
  category: v.attributes.category === 'env' ? 'env' : 'terraform',
  sensitive: v.attributes.sensitive === true,
  hcl: v.attributes.hcl === true,
});

/**
 * A variable's fields for adding or editing one. A sensitive variable's value is write-only: left
 * empty on an edit it keeps the value it has, and a sensitive variable cannot be made plain again.
 */
function VariableForm({
  initial,
  submit,
  onSave,
  editing = false,
}: {
  initial: VariableFields;
  submit: string;
  /** Gets every field, and those that changed from `initial` (what an edit sends). */
  onSave: (fields: VariableFields, changed: AttributesOf<'variable.update'>) => Promise<unknown>;
  editing?: boolean;
}) {
  const [f, setF] = useState(initial);
  const wasSensitive = editing && initial.sensitive;
  const save = () => {
    // Only what changed is sent on an edit, so an untouched sensitive value is kept as it is.
    const changed: AttributesOf<'variable.update'> = Object.fromEntries(
      (Object.keys(f) as (keyof VariableFields)[])
        .filter((k) => f[k] !== initial[k] && !(k === 'value' && wasSensitive && f.value === ''))
        .map((k) => [k, f[k]]),
    );
    return onSave(f, changed);
  };
  return (
    <Form submit={submit} onSubmit={save}>
      <Field label="Key">
        <input required value={f.key} onChange={(e) => setF({ ...f, key: e.target.value })} />
      </Field>
      <Field label="Value" hint={wasSensitive ? 'Sensitive: leave empty to keep the current value.' : undefined}>
        <textarea rows={2} value={f.value} onChange={(e) => setF({ ...f, value: e.target.value })} />
      </Field>
      <Field label="Description">
        <input value={f.description} onChange={(e) => setF({ ...f, description: e.target.value })} />
      </Field>
      <Select
        label="Category"
        value={f.category}
        options={[
          ['terraform', 'Terraform variable'],
          ['env', 'Environment variable'],
        ]}
        onChange={(category) => setF({ ...f, category })}
      />
      <Checkbox
        label="Sensitive (write-only once saved)"
        checked={f.sensitive}
        disabled={wasSensitive}
        onChange={(sensitive) => setF({ ...f, sensitive })}
      />
      <Checkbox label="HCL" checked={f.hcl} onChange={(hcl) => setF({ ...f, hcl })} />
    </Form>
  );
}

/** Variables of a workspace or a variable set, at `base` (`.../vars` or `.../relationships/vars`). */
function VariableList({ base, canEdit, caption }: { base: string; canEdit: boolean; caption: string }) {
  const vars = useApi<ListDoc>(base);
  return (
    <>
      <Show loaded={vars} what="Loading variables">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No variables.</Empty>
          ) : (
            <Table head={['Key', 'Value', 'Category', 'Description', '']} caption={caption}>
              {d.data.map((v) => {
                const key = str(v.attributes.key);
                return (
                  <tr key={v.id}>
                    <td>
                      <code>{key}</code>
                      {v.attributes.hcl ? <span className="pill">HCL</span> : null}
                    </td>
                    <td>
                      {v.attributes.sensitive ? (
                        <span className="muted">sensitive (write-only)</span>
                      ) : (
                        <code>{str(v.attributes.value)}</code>
                      )}
                    </td>
                    <td>{v.attributes.category === 'env' ? 'environment' : 'terraform'}</td>
                    <td>{str(v.attributes.description)}</td>
                    <td>
                      {canEdit && (
                        <div className="row">
                          <DialogButton label="Edit" name={`Edit ${key}`} title={`Edit variable ${key}`}>
                            {(close) => (
                              <VariableForm
                                editing
                                initial={fieldsOf(v)}
                                submit="Save variable"
                                onSave={async (_fields, changed) => {
                                  await write(
                                    'PATCH',
                                    `${base}/${v.id}`,
                                    doc('variable.update', 'vars', changed, undefined, v.id),
                                  );
                                  close();
                                }}
                              />
                            )}
                          </DialogButton>
                          <ActionButton
                            label="Delete"
                            name={`Delete ${key}`}
                            confirm={`Delete variable ${key}?`}
                            onAction={() => write('DELETE', `${base}/${v.id}`)}
                          />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </Table>
          )
        }
      </Show>
      {canEdit && (
        <DialogButton label="Add variable" title="Add a variable" kind="primary">
          {(close) => (
            <VariableForm
              initial={BLANK}
              submit="Add variable"
              onSave={async (fields) => {
                await write('POST', base, doc('variable.create', 'vars', fields));
                close();
              }}
            />
          )}
        </DialogButton>
      )}
    </>
  );
}

/** A workspace's Variables tab: its own variables, then the variable sets applied to it (its own win). */
export function WorkspaceVariables({ org, id, canEdit }: { org: string; id: string; canEdit: boolean }) {
  const sets = useApi<ListDoc>(`/workspaces/${id}/varsets?page[size]=100`);
  return (
    <>
      <section className="card" aria-labelledby="ws-vars">
        <h2 id="ws-vars">Workspace variables</h2>
        <VariableList base={`/workspaces/${id}/vars`} canEdit={canEdit} caption="Workspace variables" />
      </section>
      <section className="card" aria-labelledby="ws-sets">
        <h2 id="ws-sets">Variable sets</h2>
        <p className="muted small">
          A workspace variable overrides a set&apos;s variable of the same key and category.
        </p>
        <Show loaded={sets} what="Loading variable sets">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No variable set applies to this workspace.</Empty>
            ) : (
              <>
                {d.data.map((s) => (
                  <section key={s.id} aria-labelledby={`set-${s.id}`} className="set">
                    <h3 id={`set-${s.id}`}>
                      <Link to={appPath(org, 'variable-sets', s.id)}>{str(s.attributes.name)}</Link>{' '}
                      {s.attributes.global ? <span className="pill">global</span> : null}
                      {s.attributes.priority ? <span className="pill">priority</span> : null}
                    </h3>
                    <VariableList
                      base={`/varsets/${s.id}/relationships/vars`}
                      canEdit={false}
                      caption={`Variables of ${str(s.attributes.name)}`}
                    />
                  </section>
                ))}
              </>
            )
          }
        </Show>
      </section>
    </>
  );
}

/** An organization's variable sets, and a form to create one for those who may. */
export function VariableSetsPage({ org }: { org: string }) {
  const sets = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/varsets?page[size]=100`);
  const perms = useOrgPermissions(org);
  const [form, setForm] = useState({ name: '', description: '', global: false });
  return (
    <Page title="Variable sets" crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <Show loaded={sets} what="Loading variable sets">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No variable sets.</Empty>
          ) : (
            <Table head={['Name', 'Applies to', 'Variables', 'Description']} caption="Variable sets">
              {d.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={appPath(org, 'variable-sets', s.id)}>{str(s.attributes.name)}</Link>
                  </td>
                  <td>
                    {s.attributes.global
                      ? 'every workspace'
                      : `${str(s.attributes['workspace-count'])} workspaces, ${str(s.attributes['project-count'])} projects`}
                  </td>
                  <td>{str(s.attributes['var-count'])}</td>
                  <td>{str(s.attributes.description)}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
      {perms['can-manage-varsets'] && (
        <section className="card" aria-labelledby="new-set">
          <h2 id="new-set">Create a variable set</h2>
          <Form
            submit="Create variable set"
            onSubmit={async () => {
              const made = await write<Doc>(
                'POST',
                `/organizations/${encodeURIComponent(org)}/varsets`,
                doc('varset.create', 'varsets', form),
              );
              navigate(appPath(org, 'variable-sets', made.data.id));
            }}
          >
            <Field label="Name">
              <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
            </Field>
            <Field label="Description">
              <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </Field>
            <Checkbox
              label="Apply to every workspace of the organization"
              checked={form.global}
              onChange={(global) => setForm({ ...form, global })}
            />
          </Form>
        </section>
      )}
    </Page>
  );
}

/** Where a variable set applies: its workspaces, with apply and remove for those who may change it. */
function SetWorkspaces({ org, set, canEdit }: { org: string; set: Resource; canEdit: boolean }) {
  const all = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/workspaces?page[size]=100`);
  const applied = relatedIds(set, 'workspaces');
  const [pick, setPick] = useState('');
  const members = (all.data?.data ?? []).filter((w) => applied.includes(w.id));
  const others = (all.data?.data ?? []).filter((w) => !applied.includes(w.id));
  const change = (method: 'POST' | 'DELETE', wsId: string) =>
    write(method, `/varsets/${set.id}/relationships/workspaces`, { data: [{ type: 'workspaces', id: wsId }] });
  if (set.attributes.global) return <p>This set applies to every workspace of the organization.</p>;
  return (
    <>
      {members.length === 0 ? (
        <Empty>Not applied to any workspace.</Empty>
      ) : (
        <ul className="plain">
          {members.map((w) => (
            <li key={w.id}>
              <Link to={appPath(org, 'workspaces', str(w.attributes.name), 'variables')}>{str(w.attributes.name)}</Link>{' '}
              {canEdit && (
                <ActionButton
                  label="Remove"
                  name={`Remove from ${str(w.attributes.name)}`}
                  onAction={() => change('DELETE', w.id)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && others.length > 0 && (
        <Form submit="Apply to workspace" onSubmit={() => change('POST', pick || others[0].id)} className="inline">
          <Select
            label="Workspace"
            value={pick || others[0].id}
            options={others.map((w) => [w.id, str(w.attributes.name)] as const)}
            onChange={setPick}
          />
        </Form>
      )}
    </>
  );
}

/** One variable set: its variables and the workspaces it applies to. */
export function VariableSetPage({ org, id }: { org: string; id: string }) {
  const found = useApi<Doc>(`/varsets/${encodeURIComponent(id)}`);
  const perms = useOrgPermissions(org);
  const canEdit = perms['can-manage-varsets'] === true;
  const name = found.data ? str(found.data.data.attributes.name) : 'Variable set';
  return (
    <Page
      title={name}
      crumbs={[
        { label: org, to: appPath(org, 'workspaces') },
        { label: 'Variable sets', to: appPath(org, 'variable-sets') },
      ]}
    >
      <Show loaded={found} what="Loading variable set">
        {(d) => (
          <>
            {d.data.attributes.description ? <p>{str(d.data.attributes.description)}</p> : null}
            <section className="card" aria-labelledby="set-vars">
              <h2 id="set-vars">Variables</h2>
              <VariableList
                base={`/varsets/${id}/relationships/vars`}
                canEdit={canEdit}
                caption="Variables of the set"
              />
            </section>
            <section className="card" aria-labelledby="set-workspaces">
              <h2 id="set-workspaces">Workspaces</h2>
              <SetWorkspaces org={org} set={d.data} canEdit={canEdit} />
            </section>
            {canEdit && (
              <ActionButton
                kind="danger"
                label="Delete variable set"
                confirm={`Delete the variable set ${name}? Its variables stop applying at once.`}
                onAction={async () => {
                  await write('DELETE', `/varsets/${id}`);
                  navigate(appPath(org, 'variable-sets'));
                }}
              />
            )}
          </>
        )}
      </Show>
    </Page>
  );
}
