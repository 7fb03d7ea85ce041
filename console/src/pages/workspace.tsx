import { useState, type FormEvent } from 'react';
import { call, doc, relatedIds, type Doc, type ListDoc, type Resource } from '../api.js';
import { Link, appPath } from '../router.js';
import {
  ActionButton,
  Empty,
  Pager,
  ErrorMessage,
  Field,
  Page,
  Show,
  Status,
  Table,
  Tabs,
  Time,
  messageOf,
  str,
  useApi,
} from '../ui.js';

type Perms = Record<string, boolean>;

const TABS = [
  { id: 'runs', label: 'Runs' },
  { id: 'variables', label: 'Variables' },
  { id: 'states', label: 'States' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'tasks', label: 'Run tasks' },
  { id: 'policies', label: 'Policy sets' },
  { id: 'settings', label: 'Settings' },
];

function Runs({ org, ws, id }: { org: string; ws: string; id: string }) {
  const [page, setPage] = useState(1);
  const runs = useApi<ListDoc>(`/workspaces/${id}/runs?page[size]=20&page[number]=${page}`, 5000);
  return (
    <Show loaded={runs} what="Loading runs">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>No runs yet. Start one with terraform plan or apply, or through the API.</Empty>
        ) : (
          <>
            <Table head={['Run', 'Status', 'Message', 'Source', 'Queued']} caption="Runs">
              {d.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={appPath(org, 'workspaces', ws, 'runs', r.id)}>{r.id}</Link>
                  </td>
                  <td>
                    <Status value={r.attributes.status} />
                  </td>
                  <td>{str(r.attributes.message)}</td>
                  <td>{str(r.attributes.source)}</td>
                  <td>
                    <Time at={r.attributes['created-at']} />
                  </td>
                </tr>
              ))}
            </Table>
            <Pager list={runs.data} setPage={setPage} label="Run pages" prev="Newer runs" next="Older runs" />
          </>
        )
      }
    </Show>
  );
}

function Variables({ id, perms }: { id: string; perms: Perms }) {
  const vars = useApi<ListDoc>(`/workspaces/${id}/vars`);
  const [form, setForm] = useState({ key: '', value: '', category: 'terraform', sensitive: false, hcl: false });
  const [error, setError] = useState<string | null>(null);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await call('POST', `/workspaces/${id}/vars`, doc('vars', form));
      setForm({ key: '', value: '', category: 'terraform', sensitive: false, hcl: false });
      vars.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <Show loaded={vars} what="Loading variables">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No variables.</Empty>
          ) : (
            <Table head={['Key', 'Value', 'Category', 'HCL', '']} caption="Variables">
              {d.data.map((v) => (
                <tr key={v.id}>
                  <td>
                    <code>{str(v.attributes.key)}</code>
                  </td>
                  <td>
                    {v.attributes.sensitive ? (
                      <span className="muted">sensitive (write-only)</span>
                    ) : (
                      <code>{str(v.attributes.value)}</code>
                    )}
                  </td>
                  <td>{str(v.attributes.category)}</td>
                  <td>{v.attributes.hcl ? 'yes' : ''}</td>
                  <td>
                    {perms['can-update-variable'] && (
                      <ActionButton
                        label={`Delete ${str(v.attributes.key)}`}
                        confirm={`Delete variable ${str(v.attributes.key)}?`}
                        onAction={async () => {
                          await call('DELETE', `/workspaces/${id}/vars/${v.id}`);
                          vars.reload();
                        }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
      {perms['can-update-variable'] && (
        <details className="card">
          <summary>Add a variable</summary>
          <form onSubmit={(e) => void add(e)} className="form">
            <Field label="Key">
              <input required value={form.key} onChange={(e) => setForm({ ...form, key: e.target.value })} />
            </Field>
            <Field label="Value">
              <input value={form.value} onChange={(e) => setForm({ ...form, value: e.target.value })} />
            </Field>
            <Field label="Category">
              <select value={form.category} onChange={(e) => setForm({ ...form, category: e.target.value })}>
                <option value="terraform">Terraform variable</option>
                <option value="env">Environment variable</option>
              </select>
            </Field>
            <label className="check">
              <input
                type="checkbox"
                checked={form.sensitive}
                onChange={(e) => setForm({ ...form, sensitive: e.target.checked })}
              />{' '}
              Sensitive
            </label>
            <label className="check">
              <input type="checkbox" checked={form.hcl} onChange={(e) => setForm({ ...form, hcl: e.target.checked })} />{' '}
              HCL
            </label>
            {error && <ErrorMessage error={error} />}
            <button type="submit" className="btn primary">
              Add variable
            </button>
          </form>
        </details>
      )}
    </>
  );
}

function States({ id }: { id: string }) {
  const outputs = useApi<ListDoc>(`/workspaces/${id}/current-state-version-outputs`);
  const versions = useApi<ListDoc>(`/workspaces/${id}/state-versions?page[size]=20`);
  return (
    <>
      <section className="card" aria-labelledby="outputs">
        <h2 id="outputs">Outputs of the current state</h2>
        {outputs.error && /not found|no current/i.test(outputs.error) ? (
          <Empty>No state yet.</Empty>
        ) : (
          <Show loaded={outputs} what="Loading outputs">
            {(d) =>
              d.data.length === 0 ? (
                <Empty>The current state has no outputs.</Empty>
              ) : (
                <Table head={['Name', 'Type', 'Value']} caption="Outputs">
                  {d.data.map((o) => (
                    <tr key={o.id}>
                      <td>
                        <code>{str(o.attributes.name)}</code>
                      </td>
                      <td>{str(o.attributes.type)}</td>
                      <td>
                        {o.attributes.sensitive ? (
                          <span className="muted">sensitive</span>
                        ) : (
                          <code>{str(o.attributes.value)}</code>
                        )}
                      </td>
                    </tr>
                  ))}
                </Table>
              )
            }
          </Show>
        )}
      </section>
      <section className="card" aria-labelledby="versions">
        <h2 id="versions">State versions</h2>
        <Show loaded={versions} what="Loading state versions">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No state versions yet.</Empty>
            ) : (
              <Table head={['Serial', 'Id', 'Status', 'Resources', 'Created']} caption="State versions">
                {d.data.map((s) => (
                  <tr key={s.id}>
                    <td>{str(s.attributes.serial)}</td>
                    <td>{s.id}</td>
                    <td>
                      <Status value={s.attributes.status} />
                    </td>
                    <td>{Array.isArray(s.attributes.resources) ? s.attributes.resources.length : ''}</td>
                    <td>
                      <Time at={s.attributes['created-at']} />
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
    </>
  );
}

function Deliveries({
  org,
  ws,
  configId,
  canResend,
}: {
  org: string;
  ws: string;
  configId: string;
  canResend: boolean;
}) {
  const deliveries = useApi<ListDoc>(`/notification-configurations/${configId}/deliveries?page[size]=20`, 5000);
  return (
    <Show loaded={deliveries} what="Loading deliveries">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>Nothing delivered yet.</Empty>
        ) : (
          <Table head={['Trigger', 'Run', 'Status', 'Attempts', 'Last answer', 'Created', '']} caption="Delivery log">
            {d.data.map((x) => (
              <tr key={x.id}>
                <td>{str(x.attributes.trigger)}</td>
                <td>
                  {relatedIds(x, 'run')[0] ? (
                    <Link to={appPath(org, 'workspaces', ws, 'runs', relatedIds(x, 'run')[0])}>
                      {relatedIds(x, 'run')[0]}
                    </Link>
                  ) : (
                    <span className="muted">none (a test)</span>
                  )}
                </td>
                <td>
                  <Status value={x.attributes.status} />
                </td>
                <td>{str(x.attributes['attempt-count'])}</td>
                <td>
                  {x.attributes['last-status-code'] !== null ? `HTTP ${str(x.attributes['last-status-code'])}` : ''}{' '}
                  {str(x.attributes['last-error'])}
                </td>
                <td>
                  <Time at={x.attributes['created-at']} />
                </td>
                <td>
                  {canResend && x.attributes.status !== 'pending' && x.attributes.status !== 'sending' && (
                    <ActionButton
                      label="Resend"
                      name={`Resend the ${str(x.attributes.trigger)} delivery${relatedIds(x, 'run')[0] ? ` of ${relatedIds(x, 'run')[0]}` : ''}`}
                      onAction={async () => {
                        await call('POST', `/notification-deliveries/${x.id}/actions/resend`);
                        deliveries.reload();
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )
      }
    </Show>
  );
}

function Notifications({ org, ws, id, perms }: { org: string; ws: string; id: string; perms: Perms }) {
  const configs = useApi<ListDoc>(`/workspaces/${id}/notification-configurations`);
  const manage = perms['can-manage-notification-configurations'] === true;
  if (!manage) return <Empty>Only workspace admins see notification configurations.</Empty>;
  return (
    <Show loaded={configs} what="Loading notification configurations">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>No notification configurations.</Empty>
        ) : (
          <>
            {d.data.map((c) => (
              <section key={c.id} className="card" aria-labelledby={`nc-${c.id}`}>
                <h2 id={`nc-${c.id}`}>
                  {str(c.attributes.name)} <span className="muted small">{str(c.attributes['destination-type'])}</span>{' '}
                  {c.attributes.enabled ? (
                    <span className="pill">enabled</span>
                  ) : (
                    <span className="pill">disabled</span>
                  )}
                </h2>
                <p className="muted small">
                  {str(c.attributes.url)} · triggers:{' '}
                  {Array.isArray(c.attributes.triggers) ? c.attributes.triggers.join(', ') : ''}
                </p>
                <h3>Delivery log</h3>
                <Deliveries org={org} ws={ws} configId={c.id} canResend={manage} />
              </section>
            ))}
          </>
        )
      }
    </Show>
  );
}

function Tasks({ org, id }: { org: string; id: string }) {
  const attached = useApi<ListDoc>(`/workspaces/${id}/tasks`);
  const tasks = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/tasks?page[size]=100`);
  return (
    <Show loaded={attached} what="Loading run tasks">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>No run tasks are attached to this workspace.</Empty>
        ) : (
          <Table head={['Task', 'URL', 'Stages', 'Enforcement']} caption="Attached run tasks">
            {d.data.map((wt) => {
              const task = tasks.data?.data.find((t) => t.id === relatedIds(wt, 'task')[0]);
              const stages = Array.isArray(wt.attributes.stages)
                ? wt.attributes.stages.join(', ')
                : str(wt.attributes.stage);
              return (
                <tr key={wt.id}>
                  <td>{task ? str(task.attributes.name) : relatedIds(wt, 'task')[0]}</td>
                  <td>{task ? str(task.attributes.url) : ''}</td>
                  <td>{stages.replace(/_/g, '-')}</td>
                  <td>{str(wt.attributes['enforcement-level'])}</td>
                </tr>
              );
            })}
          </Table>
        )
      }
    </Show>
  );
}

function PolicySets({ org, id }: { org: string; id: string }) {
  const sets = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/policy-sets?page[size]=100`);
  return (
    <Show loaded={sets} what="Loading policy sets">
      {(d) => {
        const applying = d.data.filter(
          (s) =>
            !relatedIds(s, 'workspace-exclusions').includes(id) &&
            (s.attributes.global === true || relatedIds(s, 'workspaces').includes(id)),
        );
        return applying.length === 0 ? (
          <Empty>No policy set applies to this workspace.</Empty>
        ) : (
          <Table head={['Policy set', 'Kind', 'Scope', 'Policies']} caption="Policy sets that apply">
            {applying.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`${appPath(org, 'policies')}#${s.id}`}>{str(s.attributes.name)}</Link>
                </td>
                <td>{str(s.attributes.kind)}</td>
                <td>{s.attributes.global ? 'every workspace' : 'this workspace'}</td>
                <td>{str(s.attributes['policy-count'])}</td>
              </tr>
            ))}
          </Table>
        );
      }}
    </Show>
  );
}

function Settings({ ws, onChange }: { ws: Resource; onChange: () => void }) {
  const a = ws.attributes;
  const perms = (a.permissions ?? {}) as Perms;
  const locked = a.locked === true;
  const [form, setForm] = useState({
    description: str(a.description),
    'auto-apply': a['auto-apply'] === true,
    'terraform-version': str(a['terraform-version']),
    'working-directory': str(a['working-directory']),
  });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await call('PATCH', `/workspaces/${ws.id}`, doc('workspaces', form));
      setSaved(true);
      onChange();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const lockAction = (name: string, body?: unknown) => async () => {
    await call('POST', `/workspaces/${ws.id}/actions/${name}`, body);
    onChange();
  };
  return (
    <>
      <section className="card" aria-labelledby="lock">
        <h2 id="lock">Lock</h2>
        <p>
          {a.locked
            ? `Locked${a['locked-reason'] ? `: ${str(a['locked-reason'])}` : ''}.`
            : 'Not locked: runs may start.'}
        </p>
        <div className="row">
          {!locked && perms['can-lock'] && (
            <ActionButton label="Lock workspace" onAction={lockAction('lock', { reason: 'locked from the console' })} />
          )}
          {locked && perms['can-unlock'] && <ActionButton label="Unlock workspace" onAction={lockAction('unlock')} />}
          {locked && perms['can-force-unlock'] && (
            <ActionButton
              kind="danger"
              label="Force unlock workspace"
              confirm="Force-unlock this workspace?"
              onAction={lockAction('force-unlock')}
            />
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="general">
        <h2 id="general">General settings</h2>
        <p className="muted small">
          Id {ws.id} · execution mode {str(a['execution-mode'])} · created <Time at={a['created-at']} />
        </p>
        <form onSubmit={(e) => void save(e)} className="form">
          <fieldset disabled={!perms['can-update']}>
            <Field label="Description">
              <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </Field>
            <Field label="Terraform version">
              <input
                value={form['terraform-version']}
                onChange={(e) => setForm({ ...form, 'terraform-version': e.target.value })}
              />
            </Field>
            <Field label="Working directory">
              <input
                value={form['working-directory']}
                onChange={(e) => setForm({ ...form, 'working-directory': e.target.value })}
              />
            </Field>
            <label className="check">
              <input
                type="checkbox"
                checked={form['auto-apply']}
                onChange={(e) => setForm({ ...form, 'auto-apply': e.target.checked })}
              />{' '}
              Apply automatically after a successful plan
            </label>
            {error && <ErrorMessage error={error} />}
            {saved && <p role="status">Saved.</p>}
            {perms['can-update'] && (
              <button type="submit" className="btn primary">
                Save settings
              </button>
            )}
          </fieldset>
        </form>
      </section>
    </>
  );
}

/** A workspace: its runs, variables, states, notifications, run tasks, policy sets, settings and lock. */
export function WorkspacePage({ org, ws, tab }: { org: string; ws: string; tab: string }) {
  const found = useApi<Doc>(`/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`);
  const active = TABS.some((t) => t.id === tab) ? tab : 'runs';
  return (
    <Page title={ws} crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <Tabs
        label="Workspace sections"
        active={active}
        tabs={TABS.map((t) => ({ ...t, to: appPath(org, 'workspaces', ws, t.id) }))}
      />
      <Show loaded={found} what="Loading workspace">
        {(d) => {
          const w = d.data;
          const perms = (w.attributes.permissions ?? {}) as Perms;
          return (
            <>
              {w.attributes.locked ? <p className="notice">This workspace is locked.</p> : null}
              {active === 'runs' && <Runs org={org} ws={ws} id={w.id} />}
              {active === 'variables' && <Variables id={w.id} perms={perms} />}
              {active === 'states' && <States id={w.id} />}
              {active === 'notifications' && <Notifications org={org} ws={ws} id={w.id} perms={perms} />}
              {active === 'tasks' && <Tasks org={org} id={w.id} />}
              {active === 'policies' && <PolicySets org={org} id={w.id} />}
              {active === 'settings' && <Settings ws={w} onChange={found.reload} />}
            </>
          );
        }}
      </Show>
    </Page>
  );
}
