import { createContext, useContext, useState, type ReactNode } from 'react';
import { doc, relatedIds, samePath, type AttributesOf, type Doc, type ListDoc, type Resource } from '../api.js';
import { Link, appPath, navigate } from '../router.js';
import {
  ActionButton,
  Checkbox,
  DialogButton,
  Empty,
  Field,
  Form,
  Page,
  Pager,
  Select,
  Show,
  Status,
  Table,
  Tabs,
  Time,
  str,
} from '../ui.js';
import { useApi, write } from '../data.js';
import { WorkspaceVariables } from './variables.js';
import { WorkspaceNotifications } from './notifications.js';
import { TeamAccess, WorkspaceTasks } from './workspace-access.js';

type Perms = Record<string, boolean>;
type ExecutionMode = NonNullable<AttributesOf<'workspace.update'>['execution-mode']>;
/** The settings the console edits, as the workspace update schema names and types them. */
type SettingsForm = Required<Pick<AttributesOf<'workspace.update'>, 'auto-apply' | 'execution-mode'>> & {
  description: string;
  'terraform-version': string;
  'working-directory': string;
};

export const TABS = [
  { id: 'runs', label: 'Runs' },
  { id: 'variables', label: 'Variables' },
  { id: 'states', label: 'States' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'tasks', label: 'Run tasks' },
  { id: 'policies', label: 'Policy sets' },
  { id: 'access', label: 'Team access' },
  { id: 'settings', label: 'Settings' },
] as const;

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

function States({ id, perms }: { id: string; perms: Perms }) {
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
              <Table head={['Serial', 'Id', 'Status', 'Resources', 'Created', '']} caption="State versions">
                {d.data.map((s, i) => (
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
                    <td>
                      <div className="row">
                        {s.attributes['hosted-state-download-url'] ? (
                          <a
                            href={samePath(str(s.attributes['hosted-state-download-url']))}
                            download={`${s.id}.tfstate`}
                            aria-label={`Download state version ${str(s.attributes.serial)}`}
                          >
                            Download
                          </a>
                        ) : null}
                        {perms['can-create-state-versions'] && i > 0 && (
                          <ActionButton
                            label="Roll back"
                            name={`Roll back to state version ${str(s.attributes.serial)}`}
                            confirm="Roll back to this state? The workspace must be locked by you."
                            onAction={() =>
                              write('POST', `/workspaces/${id}/actions/rollback`, {
                                data: { type: 'state-versions', id: s.id },
                              })
                            }
                          />
                        )}
                      </div>
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

function Settings({ org, ws }: { org: string; ws: Resource }) {
  const a = ws.attributes;
  const perms = (a.permissions ?? {}) as Perms;
  const locked = a.locked === true;
  const name = str(a.name);
  const [form, setForm] = useState<SettingsForm>({
    description: str(a.description),
    'auto-apply': a['auto-apply'] === true,
    'execution-mode': (str(a['execution-mode']) || 'remote') as ExecutionMode,
    'terraform-version': str(a['terraform-version']),
    'working-directory': str(a['working-directory']),
  });
  const lockAction = (action: string, body?: unknown) => () =>
    write('POST', `/workspaces/${ws.id}/actions/${action}`, body);
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
          Id {ws.id} · created <Time at={a['created-at']} />
        </p>
        {perms['can-update'] ? (
          <Form
            submit="Save settings"
            done="Saved."
            onSubmit={() => write('PATCH', `/workspaces/${ws.id}`, doc('workspace.update', 'workspaces', form))}
          >
            <Field label="Description">
              <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </Field>
            <Select
              label="Execution mode"
              hint="Local: terraform runs on your machine and only the state is kept here."
              value={form['execution-mode']}
              options={[
                ['remote', 'Remote'],
                ['local', 'Local'],
                ['agent', 'Agent'],
              ]}
              onChange={(v) => setForm({ ...form, 'execution-mode': v })}
            />
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
            <Checkbox
              label="Apply automatically after a successful plan"
              checked={form['auto-apply']}
              onChange={(v) => setForm({ ...form, 'auto-apply': v })}
            />
          </Form>
        ) : (
          <dl className="facts">
            <dt>Execution mode</dt>
            <dd>{str(a['execution-mode'])}</dd>
            <dt>Terraform version</dt>
            <dd>{str(a['terraform-version'])}</dd>
            <dt>Auto apply</dt>
            <dd>{a['auto-apply'] ? 'yes' : 'no'}</dd>
          </dl>
        )}
      </section>
      {(perms['can-destroy'] || perms['can-force-delete']) && (
        <section className="card danger-zone" aria-labelledby="delete">
          <h2 id="delete">Delete this workspace</h2>
          <p>
            Deleting removes its runs, variables and state versions. A workspace that still manages resources can be
            deleted only by force.
          </p>
          <ActionButton
            kind="danger"
            label="Delete workspace"
            confirm={`Delete the workspace ${name}? This cannot be undone.`}
            onAction={async () => {
              await write('POST', `/workspaces/${ws.id}/actions/safe-delete`);
              navigate(appPath(org, 'workspaces'));
            }}
          />
        </section>
      )}
    </>
  );
}

const RUN_KINDS = [
  { id: 'apply', label: 'Plan and apply', attrs: {}, needs: 'can-queue-run' },
  { id: 'plan', label: 'Plan only', attrs: { 'plan-only': true }, needs: 'can-queue-run' },
  { id: 'refresh', label: 'Refresh state only', attrs: { 'refresh-only': true }, needs: 'can-queue-run' },
  { id: 'destroy', label: 'Destroy all resources', attrs: { 'is-destroy': true }, needs: 'can-queue-destroy' },
] as const;

/** Starts a run of the workspace's latest configuration, of the kinds the viewer may queue. */
function NewRun({ org, ws }: { org: string; ws: Resource }) {
  const perms = (ws.attributes.permissions ?? {}) as Perms;
  const kinds = RUN_KINDS.filter((k) => perms[k.needs]);
  const [kind, setKind] = useState<string>(kinds[0]?.id ?? 'apply');
  const [message, setMessage] = useState('');
  if (kinds.length === 0) return null;
  return (
    <DialogButton label="New run" title="Start a new run" kind="primary">
      {() => (
        <Form
          submit="Start run"
          onSubmit={async () => {
            const chosen = RUN_KINDS.find((k) => k.id === kind)!;
            const made = await write<Doc>(
              'POST',
              '/runs',
              doc(
                'run.create',
                'runs',
                { ...chosen.attrs, ...(message ? { message } : {}) },
                { workspace: { data: { type: 'workspaces', id: ws.id } } },
              ),
            );
            navigate(appPath(org, 'workspaces', str(ws.attributes.name), 'runs', made.data.id));
          }}
        >
          <fieldset>
            <legend>Kind of run</legend>
            {kinds.map((k) => (
              <label key={k.id} className="check">
                <input
                  type="radio"
                  name="run-kind"
                  value={k.id}
                  checked={kind === k.id}
                  onChange={() => setKind(k.id)}
                />{' '}
                {k.label}
              </label>
            ))}
          </fieldset>
          <Field label="Message (optional)">
            <input value={message} onChange={(e) => setMessage(e.target.value)} />
          </Field>
        </Form>
      )}
    </DialogButton>
  );
}

/** The workspace at a glance: its current run (never a speculative plan), resources, execution mode, version, lock and tags. */
function Overview({ org, ws }: { org: string; ws: Resource }) {
  const a = ws.attributes;
  const latest = relatedIds(ws, 'current-run')[0];
  const run = useApi<Doc>(latest ? `/runs/${latest}` : null);
  const tags = Array.isArray(a['tag-names']) ? (a['tag-names'] as string[]) : [];
  return (
    <dl className="overview" aria-label="Workspace overview">
      <div>
        <dt>Current run</dt>
        <dd>
          {latest ? (
            <Link to={appPath(org, 'workspaces', str(a.name), 'runs', latest)}>
              {run.data ? <Status value={run.data.data.attributes.status} /> : latest}
            </Link>
          ) : (
            <span className="muted">none yet</span>
          )}
        </dd>
      </div>
      <div>
        <dt>Resources</dt>
        <dd>{str(a['resource-count']) || '0'}</dd>
      </div>
      <div>
        <dt>Execution mode</dt>
        <dd>{str(a['execution-mode'])}</dd>
      </div>
      <div>
        <dt>Terraform</dt>
        <dd>{str(a['terraform-version'])}</dd>
      </div>
      <div>
        <dt>Lock</dt>
        <dd>{a.locked ? 'locked' : 'unlocked'}</dd>
      </div>
      {tags.length > 0 && (
        <div>
          <dt>Tags</dt>
          <dd>
            {tags.map((t) => (
              <span key={t} className="pill">
                {t}
              </span>
            ))}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The workspace the tabs below the layout are about (read once by the layout). */
const WorkspaceContext = createContext<Resource | null>(null);

export type WorkspaceTabId = (typeof TABS)[number]['id'];

/**
 * A workspace's layout: its overview, the New run button and the tabs, around the tab's own route
 * (`children`), which reads the workspace the layout read.
 */
export function WorkspaceLayout({
  org,
  ws,
  tab,
  children,
}: {
  org: string;
  ws: string;
  tab: WorkspaceTabId;
  children: ReactNode;
}) {
  const found = useApi<Doc>(`/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`);
  return (
    <Page
      title={ws}
      crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}
      actions={found.data && <NewRun org={org} ws={found.data.data} />}
    >
      {found.data && <Overview org={org} ws={found.data.data} />}
      <Tabs
        label="Workspace sections"
        active={tab}
        tabs={TABS.map((t) => ({ ...t, to: appPath(org, 'workspaces', ws, t.id) }))}
      />
      <Show loaded={found} what="Loading workspace">
        {(d) => <WorkspaceContext.Provider value={d.data}>{children}</WorkspaceContext.Provider>}
      </Show>
    </Page>
  );
}

/** One tab of a workspace, inside its layout. */
export function WorkspaceTab({ org, tab }: { org: string; tab: WorkspaceTabId }) {
  const w = useContext(WorkspaceContext);
  if (!w) return null;
  const ws = str(w.attributes.name);
  const perms = (w.attributes.permissions ?? {}) as Perms;
  switch (tab) {
    case 'runs':
      return <Runs org={org} ws={ws} id={w.id} />;
    case 'variables':
      return <WorkspaceVariables org={org} id={w.id} canEdit={perms['can-update-variable'] === true} />;
    case 'states':
      return <States id={w.id} perms={perms} />;
    case 'notifications':
      return (
        <WorkspaceNotifications
          org={org}
          ws={ws}
          id={w.id}
          manage={perms['can-manage-notification-configurations'] === true}
        />
      );
    case 'tasks':
      return <WorkspaceTasks org={org} id={w.id} manage={perms['can-manage-run-tasks'] === true} />;
    case 'policies':
      return <PolicySets org={org} id={w.id} />;
    case 'access':
      return <TeamAccess org={org} id={w.id} manage={perms['can-update'] === true} />;
    case 'settings':
      return <Settings org={org} ws={w} />;
  }
}
