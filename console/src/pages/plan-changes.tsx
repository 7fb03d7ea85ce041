import { useApi } from '../data.js';
import { Empty, Show, Table } from '../ui.js';

type Json = unknown;
type Obj = Record<string, Json>;

interface ResourceChange {
  address: string;
  change: {
    actions: string[];
    before: Json;
    after: Json;
    after_unknown?: Json;
    before_sensitive?: Json;
    after_sensitive?: Json;
  };
}

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The action as the plan's summary names it (a delete and create together is a replace). */
function actionOf(actions: string[]): string {
  if (actions.includes('delete') && actions.includes('create')) return 'replace';
  if (actions.length === 1 && actions[0] === 'no-op') return 'no change';
  return actions.join(', ');
}

const shown = (v: Json): string => (v === undefined ? '' : JSON.stringify(v));

/**
 * The top-level attributes a change touches, old and new, with values Terraform marks sensitive
 * shown as such (the redacted plan has nulled them) and values known only after apply said so.
 */
export function changedAttributes(c: ResourceChange['change']): { name: string; before: string; after: string }[] {
  const before = isObj(c.before) ? c.before : {};
  const after = isObj(c.after) ? c.after : {};
  const unknown = isObj(c.after_unknown) ? c.after_unknown : {};
  const sensitive = (marks: Json, k: string) => (isObj(marks) ? Boolean(marks[k]) : marks === true);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(unknown)])].sort();
  const out: { name: string; before: string; after: string }[] = [];
  for (const k of names) {
    const hidden = sensitive(c.before_sensitive, k) || sensitive(c.after_sensitive, k);
    const later = unknown[k] === true;
    if (!hidden && !later && shown(before[k]) === shown(after[k])) continue;
    // An attribute that is null on both sides of the change (unset before, unset after) says nothing.
    if (!hidden && !later && (before[k] ?? null) === null && (after[k] ?? null) === null) continue;
    out.push({
      name: k,
      before: sensitive(c.before_sensitive, k) ? '(sensitive value)' : shown(before[k]),
      after: sensitive(c.after_sensitive, k) ? '(sensitive value)' : later ? '(known after apply)' : shown(after[k]),
    });
  }
  return out;
}

/** The plan's resource changes, one row each, from the plan JSON with sensitive values removed. */
export function PlanChanges({ planId }: { planId: string }) {
  const plan = useApi<{ resource_changes?: ResourceChange[] }>(`/plans/${planId}/json-output-redacted`);
  return (
    <section className="card" aria-labelledby="resource-changes">
      <h2 id="resource-changes">Resource changes</h2>
      <Show loaded={plan} what="Loading resource changes">
        {(d) => {
          const changes = (d.resource_changes ?? []).filter((rc) => actionOf(rc.change.actions) !== 'no change');
          return changes.length === 0 ? (
            <Empty>The plan changes no resources.</Empty>
          ) : (
            <Table head={['Resource', 'Action', 'Changed attributes']} caption="Resource changes">
              {changes.map((rc) => (
                <tr key={rc.address}>
                  <td>
                    <code>{rc.address}</code>
                  </td>
                  <td>
                    <span className={`action-${actionOf(rc.change.actions)}`}>{actionOf(rc.change.actions)}</span>
                  </td>
                  <td>
                    <ul className="attrs">
                      {changedAttributes(rc.change).map((a) => (
                        <li key={a.name}>
                          <code>{a.name}</code>: {a.before && <del>{a.before}</del>} {a.before && '→'}{' '}
                          <ins>{a.after || 'null'}</ins>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </Table>
          );
        }}
      </Show>
    </section>
  );
}
