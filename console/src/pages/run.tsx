import { useEffect, useRef, useState } from 'react';
import { call, related, samePath, text, type Attrs, type Doc, type ListDoc, type Resource } from '../api.js';
import { Link, appPath } from '../router.js';
import { ActionButton, Empty, ErrorMessage, Loading, Page, Show, Status, Time, messageOf, str, useApi } from '../ui.js';

interface RunAttrs {
  status: string;
  message: string | null;
  source: string;
  'created-at': string;
  'is-destroy': boolean;
  'plan-only': boolean;
  'has-changes': boolean;
  'error-message': string | null;
  'status-timestamps': Record<string, string>;
  actions: Record<string, boolean>;
  permissions: Record<string, boolean>;
}

interface PhaseAttrs {
  status: string;
  'log-read-url': string;
  'resource-additions': number | null;
  'resource-changes': number | null;
  'resource-destructions': number | null;
  'resource-imports'?: number | null;
  'status-timestamps': Record<string, string>;
}

const FINAL_RUN = new Set([
  'applied',
  'planned_and_finished',
  'errored',
  'canceled',
  'force_canceled',
  'discarded',
  'policy_soft_failed',
]);
const FINAL_PHASE = new Set(['finished', 'errored', 'canceled', 'unreachable', 'force_canceled']);
const FINAL_RESULT = new Set(['passed', 'failed', 'errored', 'canceled', 'unreachable', 'skipped']);

/** Terminal control sequences and the STX/ETX markers terraform puts around its log. */
const CONTROL = /\u001b\[[0-9;]*[A-Za-z]|[\u0002\u0003]/g;

/** A phase's log, read from its signed URL in pieces and followed while the phase runs. */
/** A machine-readable log line (terraform's `-json` UI output), or null for plain text. */
function jsonLine(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && typeof (v as Record<string, unknown>)['@message'] === 'string'
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A log for people: terraform's JSON lines shown as their messages, other lines as they are. */
export function readableLog(raw: string): string {
  return raw
    .split('\n')
    .map((line) => {
      const j = jsonLine(line);
      if (!j) return line;
      // A diagnostic's detail says what went wrong (a failed assertion's error message, for one).
      const detail = (j.diagnostic as { detail?: unknown } | undefined)?.detail;
      return typeof detail === 'string' && detail ? `${String(j['@message'])}\n  ${detail}` : String(j['@message']);
    })
    .join('\n');
}

/** Each test's outcome from a `terraform test -json` log: file, run block and pass/fail/error/skip. */
export function testResults(raw: string): { file: string; run: string; status: string }[] {
  const out: { file: string; run: string; status: string }[] = [];
  for (const line of raw.split('\n')) {
    const run = jsonLine(line)?.test_run as
      { path?: string; run?: string; progress?: string; status?: string } | undefined;
    if (run?.progress === 'complete' && run.run && run.status)
      out.push({ file: run.path ?? '', run: run.run, status: run.status });
  }
  return out;
}

const TEST_STATUS: Record<string, string> = { pass: 'passed', fail: 'failed', error: 'errored', skip: 'skipped' };

export function LogView({
  url,
  status,
  label,
  tests = false,
}: {
  url: string;
  status: string;
  label: string;
  tests?: boolean;
}) {
  const [log, setLog] = useState('');
  const [error, setError] = useState<string | null>(null);
  const offset = useRef(0);
  const latest = useRef({ url, status });
  latest.current = { url, status };
  const [done, setDone] = useState(false);
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const LIMIT = 262144;
    const read = async () => {
      const { url: u, status: s } = latest.current;
      if (!u) {
        timer = setTimeout(read, 1000);
        return;
      }
      const finalBefore = FINAL_PHASE.has(s);
      try {
        const sep = u.includes('?') ? '&' : '?';
        const chunk = await text(`${samePath(u)}${sep}offset=${offset.current}&limit=${LIMIT}`);
        if (!alive) return;
        setError(null);
        if (chunk.length) {
          // The service counts bytes: advance by the chunk's length in UTF-8.
          offset.current += new TextEncoder().encode(chunk).length;
          setLog((l) => l + chunk.replace(CONTROL, ''));
        }
        if (finalBefore && chunk.length < LIMIT) {
          setDone(true);
          return;
        }
        timer = setTimeout(read, chunk.length >= LIMIT ? 0 : 1000);
      } catch (err) {
        if (!alive) return;
        // A phase that has not started has no log yet; keep waiting quietly.
        if (!finalBefore) timer = setTimeout(read, 1500);
        else setError(messageOf(err));
      }
    };
    void read();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, []);
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = pre.current;
    if (el && !done) el.scrollTop = el.scrollHeight;
  }, [log, done]);
  return (
    <div className="log">
      {error && <ErrorMessage error={error} />}
      <pre ref={pre} aria-label={label} tabIndex={0} className="log-text" data-following={done ? 'no' : 'yes'}>
        {readableLog(log) || (done ? 'No log output.' : 'Waiting for log output…')}
      </pre>
      {tests && testResults(log).length > 0 && (
        <ul className="test-results" aria-label="Test results">
          {testResults(log).map((t) => (
            <li key={`${t.file}/${t.run}`}>
              <Status value={TEST_STATUS[t.status] ?? t.status} /> {t.file} — run “{t.run}”
            </li>
          ))}
        </ul>
      )}
      {!done && <p className="muted small">Following the log while the phase runs.</p>}
    </div>
  );
}

function Changes({ a, title }: { a: PhaseAttrs; title: string }) {
  const n = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);
  return (
    <p className="changes" aria-label={title}>
      <span className="add">+{n(a['resource-additions'])} to add</span>{' '}
      <span className="change">~{n(a['resource-changes'])} to change</span>{' '}
      <span className="destroy">-{n(a['resource-destructions'])} to destroy</span>
      {n(a['resource-imports']) > 0 && <span> {n(a['resource-imports'])} to import</span>}
    </p>
  );
}

function Phase({ name, phase }: { name: 'Plan' | 'Apply'; phase: Resource<PhaseAttrs> | undefined }) {
  if (!phase) return null;
  const a = phase.attributes;
  return (
    <section className="card" aria-labelledby={`phase-${name}`}>
      <h2 id={`phase-${name}`}>
        {name} <Status value={a.status} />
      </h2>
      {a.status === 'finished' && <Changes a={a} title={`${name} resource changes`} />}
      {a.status === 'unreachable' || a.status === 'pending' || (a.status === 'queued' && !a['log-read-url']) ? (
        <p className="muted">
          {a.status === 'unreachable'
            ? `The run ended without an ${name.toLowerCase()}.`
            : `The ${name.toLowerCase()} has not started.`}
        </p>
      ) : (
        <LogView key={phase.id} url={a['log-read-url']} status={a.status} label={`${name} log`} />
      )}
    </section>
  );
}

function Timeline({ runId, live }: { runId: string; live: boolean }) {
  const events = useApi<ListDoc<{ action: string; description: string | null; 'created-at': string }>>(
    `/runs/${runId}/run-events`,
    3000,
    () => live,
  );
  return (
    <section className="card" aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      <Show loaded={events} what="Loading events">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No events yet.</Empty>
          ) : (
            <ol className="timeline">
              {d.data.map((e) => (
                <li key={e.id}>
                  <Time at={e.attributes['created-at']} /> <strong>{e.attributes.action.replace(/_/g, ' ')}</strong>
                  {e.attributes.description && <span className="muted"> — {e.attributes.description}</span>}
                </li>
              ))}
            </ol>
          )
        }
      </Show>
    </section>
  );
}

/** Outcome tag levels, most severe first. */
const rank: Record<string, number> = { error: 0, warning: 1, info: 2, none: 3 };

interface TagLabel {
  label: string;
  level?: string;
}

/** An outcome's tags: each tag name with its labels, colored by level (error, warning, info, none). */
function Tags({ tags }: { tags: unknown }) {
  if (!tags || typeof tags !== 'object') return null;
  const entries = Object.entries(tags as Record<string, unknown>);
  if (!entries.length) return null;
  const labels = entries
    .flatMap(([name, list]) => (Array.isArray(list) ? (list as TagLabel[]) : []).map((l) => ({ name, ...l })))
    .sort((x, y) => (rank[x.level ?? 'none'] ?? 3) - (rank[y.level ?? 'none'] ?? 3));
  return (
    <ul className="tags" aria-label="Tags">
      {labels.map((l, i) => (
        <li key={`${l.name}-${i}`} className={`tag level-${l.level ?? 'none'}`}>
          <span className="tag-name">{l.name}:</span> {l.label}
          {l.level && l.level !== 'none' && <span className="sr-only"> ({l.level})</span>}
        </li>
      ))}
    </ul>
  );
}

interface Attempt {
  attempt: number;
  state: string;
  'status-code': number | null;
  'duration-ms': number | null;
  error: string | null;
  'sent-at': string | null;
}

function Attempts({ attempts }: { attempts: Attempt[] }) {
  if (!attempts.length) return <p className="muted small">No delivery attempts yet.</p>;
  return (
    <details className="attempts">
      <summary>
        {attempts.length} delivery attempt{attempts.length === 1 ? '' : 's'}
      </summary>
      <ol>
        {attempts.map((t) => (
          <li key={t.attempt}>
            #{t.attempt} <Time at={t['sent-at']} /> — {t['status-code'] !== null ? `HTTP ${t['status-code']}` : t.state}
            {t['duration-ms'] !== null && ` in ${t['duration-ms']} ms`}
            {t.error && <span className="error-inline"> {t.error}</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Severity order of an outcome: its worst tag level. */
function severity(o: Resource): number {
  const tags = o.attributes.tags;
  let worst = 3;
  if (tags && typeof tags === 'object') {
    for (const labels of Object.values(tags as Record<string, unknown>)) {
      if (Array.isArray(labels))
        for (const l of labels as TagLabel[]) worst = Math.min(worst, rank[l.level ?? 'none'] ?? 3);
    }
  }
  return worst;
}

function TaskResult({ id, live }: { id: string; live: boolean }) {
  const r = useApi<Doc>(
    `/task-results/${id}?include=outcomes`,
    2500,
    (d) => live || !FINAL_RESULT.has(str(d.data.attributes.status)),
  );
  return (
    <Show loaded={r} what="Loading task result">
      {(d) => {
        const a = d.data.attributes;
        const outcomes = (d.included ?? [])
          .filter((i) => i.type === 'task-result-outcomes')
          .sort((x, y) => severity(x) - severity(y));
        return (
          <article className="task-result" aria-label={`Task ${str(a['task-name'])}`}>
            <h4>
              {str(a['task-name'])} <Status value={a.status} />{' '}
              <span className="muted small">{str(a['workspace-task-enforcement-level'])}</span>
            </h4>
            {a.message ? <p>{str(a.message)}</p> : null}
            {a.url ? (
              <p>
                <a href={str(a.url)} target="_blank" rel="noreferrer noopener">
                  Details from {str(a['task-name'])}
                </a>
              </p>
            ) : null}
            <Attempts attempts={(a['delivery-attempts'] as Attempt[] | undefined) ?? []} />
            {outcomes.length > 0 && (
              <ul className="outcomes" aria-label="Outcomes">
                {outcomes.map((o) => (
                  <li key={o.id} className={`outcome sev-${severity(o)}`}>
                    <div>
                      <strong>{str(o.attributes['outcome-id'])}</strong> {str(o.attributes.description)}
                    </div>
                    <Tags tags={o.attributes.tags} />
                    {o.attributes.body ? <pre className="outcome-body">{str(o.attributes.body)}</pre> : null}
                    {o.attributes.url ? (
                      <a href={str(o.attributes.url)} target="_blank" rel="noreferrer noopener">
                        More about {str(o.attributes['outcome-id'])}
                      </a>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </article>
        );
      }}
    </Show>
  );
}

function TaskStages({ runId, live }: { runId: string; live: boolean }) {
  const stages = useApi<ListDoc>(`/runs/${runId}/task-stages`, 3000, () => live);
  return (
    <Show loaded={stages} what="Loading run tasks">
      {(d) =>
        d.data.length === 0 ? null : (
          <section className="card" aria-labelledby="tasks">
            <h2 id="tasks">Run tasks</h2>
            {d.data.map((s) => {
              const ids = (s.relationships?.['task-results']?.data as { id: string }[] | undefined) ?? [];
              return (
                <div key={s.id} className="stage">
                  <h3>
                    {str(s.attributes.stage).replace(/_/g, '-')} stage <Status value={s.attributes.status} />
                  </h3>
                  {ids.length === 0 ? (
                    <Empty>No task results in this stage.</Empty>
                  ) : (
                    ids.map((r) => <TaskResult key={r.id} id={r.id} live={live} />)
                  )}
                </div>
              );
            })}
          </section>
        )
      }
    </Show>
  );
}

function PolicyCheck({ check, onChange }: { check: Resource; onChange: () => void }) {
  const a = check.attributes as Attrs & {
    status: string;
    result: Record<string, unknown> | null;
    actions: Record<string, boolean>;
    permissions: Record<string, boolean>;
  };
  const [output, setOutput] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (['pending', 'queued', 'running'].includes(a.status)) return;
    text(`/policy-checks/${check.id}/output`)
      .then((t) => setOutput(t))
      .catch((err: unknown) => setError(messageOf(err)));
  }, [check.id, a.status]);
  const result = a.result ?? {};
  return (
    <article className="policy-check" aria-label="Policy check">
      <h3>
        Policy check ({str(a.scope)}) <Status value={a.status} />
      </h3>
      <p className="muted">
        {['passed', 'total-failed', 'hard-failed', 'soft-failed', 'advisory-failed']
          .filter((k) => typeof result[k] === 'number')
          .map((k) => `${k.replace(/-/g, ' ')}: ${str(result[k])}`)
          .join(' · ')}
      </p>
      {error && <ErrorMessage error={error} />}
      {output !== null && (
        <pre className="log-text" aria-label="Policy check output" tabIndex={0}>
          {output.replace(CONTROL, '') || 'No output.'}
        </pre>
      )}
      {a.permissions?.['can-override'] && a.actions?.['is-overridable'] && (
        <ActionButton
          kind="primary"
          label="Override and continue"
          onAction={async () => {
            await call('POST', `/policy-checks/${check.id}/actions/override`);
            onChange();
          }}
        />
      )}
    </article>
  );
}

function PolicyChecks({ runId, live, onChange }: { runId: string; live: boolean; onChange: () => void }) {
  const checks = useApi<ListDoc>(`/runs/${runId}/policy-checks`, 3000, () => live);
  return (
    <Show loaded={checks} what="Loading policy checks">
      {(d) =>
        d.data.length === 0 ? null : (
          <section className="card" aria-labelledby="policy">
            <h2 id="policy">Policy checks</h2>
            {d.data.map((c) => (
              <PolicyCheck
                key={c.id}
                check={c}
                onChange={() => {
                  checks.reload();
                  onChange();
                }}
              />
            ))}
          </section>
        )
      }
    </Show>
  );
}

function RunActions({ run, onChange }: { run: Resource<RunAttrs>; onChange: () => void }) {
  const { actions = {}, permissions = {} } = run.attributes;
  const act = (name: string) => async () => {
    await call('POST', `/runs/${run.id}/actions/${name}`, { comment: 'from the console' });
    onChange();
  };
  const buttons = [
    actions['is-confirmable'] && permissions['can-apply'] && (
      <ActionButton key="apply" kind="primary" label="Confirm and apply" onAction={act('apply')} />
    ),
    actions['is-discardable'] && permissions['can-discard'] && (
      <ActionButton key="discard" label="Discard run" onAction={act('discard')} />
    ),
    actions['is-cancelable'] && permissions['can-cancel'] && (
      <ActionButton key="cancel" label="Cancel run" confirm="Cancel this run?" onAction={act('cancel')} />
    ),
    actions['is-force-cancelable'] && permissions['can-force-cancel'] && (
      <ActionButton
        key="force"
        kind="danger"
        label="Force cancel run"
        confirm="Force-cancel this run? Its workspace is unlocked at once."
        onAction={act('force-cancel')}
      />
    ),
  ].filter(Boolean);
  return buttons.length ? <div className="row actions">{buttons}</div> : null;
}

/** A run: its status, timeline, plan and apply logs (live), run tasks, policy checks and the actions the viewer may take. */
export function RunPage({ org, ws, runId }: { org: string; ws: string; runId: string }) {
  const [live, setLive] = useState(true);
  const run = useApi<Doc<RunAttrs>>(
    `/runs/${encodeURIComponent(runId)}?include=plan,apply,created_by`,
    2000,
    (d) => !FINAL_RUN.has(d.data.attributes.status),
  );
  const status = run.data?.data.attributes.status;
  useEffect(() => {
    if (status) setLive(!FINAL_RUN.has(status));
  }, [status]);
  const crumbs = [
    { label: org, to: appPath(org, 'workspaces') },
    { label: ws, to: appPath(org, 'workspaces', ws) },
  ];
  return (
    <Page title={`Run ${runId}`} crumbs={crumbs}>
      {run.data === undefined && (run.error ? <ErrorMessage error={run.error} /> : <Loading what="Loading run" />)}
      {run.data &&
        (() => {
          const d = run.data;
          const a = d.data.attributes;
          const plan = related<PhaseAttrs>(d, d.data, 'plan');
          const apply = related<PhaseAttrs>(d, d.data, 'apply');
          const by = related(d, d.data, 'created-by');
          return (
            <>
              {run.error && <ErrorMessage error={run.error} />}
              <section className="card run-head" aria-label="Run summary">
                <p className="run-status">
                  Status: <Status value={a.status} />
                  {a['plan-only'] && <span className="pill">plan only</span>}
                  {a['is-destroy'] && <span className="pill">destroy</span>}
                </p>
                <p>{a.message || <span className="muted">No message</span>}</p>
                <p className="muted small">
                  Queued <Time at={a['created-at']} /> from {a.source}
                  {by && ` by ${str(by.attributes.username)}`} ·{' '}
                  <Link to={appPath(org, 'workspaces', ws, 'runs')}>All runs of {ws}</Link>
                </p>
                {a['error-message'] && <ErrorMessage error={a['error-message']} />}
                <RunActions run={d.data} onChange={run.reload} />
              </section>
              <div className="run-grid">
                <div className="run-main">
                  <Phase name="Plan" phase={plan} />
                  <TaskStages runId={runId} live={live} />
                  <PolicyChecks runId={runId} live={live} onChange={run.reload} />
                  <Phase name="Apply" phase={apply} />
                </div>
                <aside className="run-side">
                  <Timeline runId={runId} live={live} />
                </aside>
              </div>
            </>
          );
        })()}
    </Page>
  );
}
