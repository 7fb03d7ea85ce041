import type { ListDoc } from '../api.js';
import { appPath } from '../router.js';
import { Empty, Page, Show, Table, Time, str } from '../ui.js';
import { useApi } from '../data.js';

/** The organization's policies and policy sets. */
export function PoliciesPage({ org }: { org: string }) {
  const base = `/organizations/${encodeURIComponent(org)}`;
  const policies = useApi<ListDoc>(`${base}/policies?page[size]=100`);
  const sets = useApi<ListDoc>(`${base}/policy-sets?page[size]=100`);
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
    </Page>
  );
}
