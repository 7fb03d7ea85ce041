import { useEffect, useState } from 'react';
import { text, type Attrs, type Doc, type ListDoc, type Resource } from '../api.js';
import { messageOf, useApi, write } from '../data.js';
import { SafeMarkdown } from '../markdown.js';
import { ActionButton, Empty, ErrorMessage, Show, Status, Time, str } from '../ui.js';
import { CONTROL, FINAL_RESULT } from './run-states.js';

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
                    {o.attributes.body ? (
                      <SafeMarkdown
                        source={str(o.attributes.body)}
                        label={`Details of ${str(o.attributes['outcome-id'])}`}
                      />
                    ) : null}
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

export function TaskStages({ runId, live }: { runId: string; live: boolean }) {
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
                  {ids.length === 0 && evaluations(s).length === 0 ? (
                    <Empty>No task results in this stage.</Empty>
                  ) : (
                    ids.map((r) => <TaskResult key={r.id} id={r.id} live={live} />)
                  )}
                  {evaluations(s).length > 0 && <PolicyEvaluations stageId={s.id} live={live} />}
                  {(s.attributes.permissions as Record<string, boolean> | undefined)?.['can-override'] && (
                    <ActionButton
                      kind="primary"
                      label="Override and continue"
                      name={`Override and continue past the ${str(s.attributes.stage).replace(/_/g, '-')} stage`}
                      onAction={() => write('POST', `/task-stages/${s.id}/actions/override`)}
                    />
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

function PolicyCheck({ check }: { check: Resource }) {
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
            await write('POST', `/policy-checks/${check.id}/actions/override`);
          }}
        />
      )}
    </article>
  );
}

export function PolicyChecks({ runId, live }: { runId: string; live: boolean }) {
  const checks = useApi<ListDoc>(`/runs/${runId}/policy-checks`, 3000, () => live);
  return (
    <Show loaded={checks} what="Loading policy checks">
      {(d) =>
        d.data.length === 0 ? null : (
          <section className="card" aria-labelledby="policy">
            <h2 id="policy">Policy checks</h2>
            {d.data.map((c) => (
              <PolicyCheck key={c.id} check={c} />
            ))}
          </section>
        )
      }
    </Show>
  );
}

/** The policy evaluations a task stage has (OPA's and Sentinel's, run as part of the stage). */
const evaluations = (stage: Resource): { id: string }[] =>
  (stage.relationships?.['policy-evaluations']?.data as { id: string }[] | undefined) ?? [];

interface PolicyOutcome {
  policy_name: string;
  description: string | null;
  enforcement_level: string;
  status: string;
  output?: { print: string }[];
}

/** A stage's policy evaluations: each policy set's outcomes, policy by policy, with what the policy printed. */
function PolicyEvaluations({ stageId, live }: { stageId: string; live: boolean }) {
  const found = useApi<ListDoc>(`/task-stages/${stageId}/policy-evaluations`, 3000, () => live);
  return (
    <Show loaded={found} what="Loading policy evaluations">
      {(d) => (
        <>
          {d.data.map((e) => (
            <article key={e.id} className="policy-check" aria-label={`Policy evaluation ${e.id}`}>
              <h4>
                {str(e.attributes['policy-kind']).toUpperCase()} policy evaluation{' '}
                <Status value={e.attributes.status} />
              </h4>
              <SetOutcomes evaluationId={e.id} live={live || !FINAL_EVALUATION.has(str(e.attributes.status))} />
            </article>
          ))}
        </>
      )}
    </Show>
  );
}

const FINAL_EVALUATION = new Set(['passed', 'failed', 'errored', 'canceled', 'overridden', 'unreachable']);

function SetOutcomes({ evaluationId, live }: { evaluationId: string; live: boolean }) {
  const found = useApi<ListDoc>(`/policy-evaluations/${evaluationId}/policy-set-outcomes`, 3000, () => live);
  return (
    <Show loaded={found} what="Loading policy outcomes">
      {(d) =>
        d.data.length === 0 ? (
          <Empty>No policy set outcomes yet.</Empty>
        ) : (
          <>
            {d.data.map((o) => {
              const outcomes = (o.attributes.outcomes as PolicyOutcome[] | undefined) ?? [];
              return (
                <div key={o.id} className="set-outcome">
                  <h5>Policy set {str(o.attributes['policy-set-name'])}</h5>
                  {o.attributes.error ? <ErrorMessage error={str(o.attributes.error)} /> : null}
                  <ul className="outcomes" aria-label={`Policies of ${str(o.attributes['policy-set-name'])}`}>
                    {outcomes.map((p) => (
                      <li key={p.policy_name} className="outcome">
                        <div>
                          <Status value={p.status} /> <strong>{p.policy_name}</strong>{' '}
                          <span className="muted small">{p.enforcement_level}</span>
                        </div>
                        {p.description && <p className="small">{p.description}</p>}
                        {(p.output ?? []).length > 0 && (
                          <pre className="outcome-body">{(p.output ?? []).map((x) => x.print).join('\n')}</pre>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </>
        )
      }
    </Show>
  );
}
