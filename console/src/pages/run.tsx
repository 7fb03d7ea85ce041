import { useEffect, useRef, useState } from 'react';
import { related, samePath, text, type Doc, type ListDoc, type Resource } from '../api.js';
import { Link, appPath } from '../router.js';
import {
  ActionButton,
  DialogButton,
  Empty,
  ErrorMessage,
  Field,
  Form,
  Loading,
  Page,
  Show,
  Status,
  Time,
  str,
} from '../ui.js';
import { messageOf, useApi, write } from '../data.js';
import { PlanChanges } from './plan-changes.js';
import { PolicyChecks, TaskStages } from './run-checks.js';
import { CONTROL, FINAL_PHASE, FINAL_RUN } from './run-states.js';

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

/** A run action that asks for a comment first (the comment joins the run's timeline, as in TFE). */
function CommentedAction({
  run,
  action,
  label,
  kind,
}: {
  run: Resource<RunAttrs>;
  action: 'apply' | 'discard';
  label: string;
  kind: 'primary' | 'secondary';
}) {
  const [comment, setComment] = useState('');
  return (
    <DialogButton label={label} title={`${label}: ${run.id}`} kind={kind}>
      {(close) => (
        <Form
          submit={label}
          onSubmit={async () => {
            await write('POST', `/runs/${run.id}/actions/${action}`, comment ? { comment } : {});
            close();
          }}
        >
          <Field label="Comment (optional)">
            <textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
          </Field>
        </Form>
      )}
    </DialogButton>
  );
}

function RunActions({ run }: { run: Resource<RunAttrs> }) {
  const { actions = {}, permissions = {} } = run.attributes;
  const act = (name: string) => () => write('POST', `/runs/${run.id}/actions/${name}`);
  const buttons = [
    actions['is-confirmable'] && permissions['can-apply'] && (
      <CommentedAction key="apply" run={run} action="apply" label="Confirm and apply" kind="primary" />
    ),
    actions['is-discardable'] && permissions['can-discard'] && (
      <CommentedAction key="discard" run={run} action="discard" label="Discard run" kind="secondary" />
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
                <RunActions run={d.data} />
              </section>
              <div className="run-grid">
                <div className="run-main">
                  <Phase name="Plan" phase={plan} />
                  {plan?.attributes.status === 'finished' && <PlanChanges planId={plan.id} />}
                  <TaskStages runId={runId} live={live} />
                  <PolicyChecks runId={runId} live={live} />
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
