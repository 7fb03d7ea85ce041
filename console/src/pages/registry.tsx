import { useState } from 'react';
import type { Doc, ListDoc, Resource } from '../api.js';
import { Link, appPath } from '../router.js';
import { Empty, Page, Show, Status, Table, Time, str } from '../ui.js';
import { useApi } from '../data.js';
import { LogView } from './run.js';

const modulePathOf = (m: Resource) => [
  str(m.attributes['registry-name']) || 'private',
  str(m.attributes.namespace),
  str(m.attributes.name),
  str(m.attributes.provider),
];

/** The organization's private registry modules. */
export function RegistryPage({ org }: { org: string }) {
  const modules = useApi<ListDoc>(`/organizations/${encodeURIComponent(org)}/registry-modules?page[size]=100`);
  return (
    <Page title="Module registry" crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <Show loaded={modules} what="Loading modules">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>No modules in this organization's registry yet.</Empty>
          ) : (
            <Table head={['Module', 'Provider', 'Namespace', 'Updated']} caption="Modules">
              {d.data.map((m) => {
                const [, namespace, name, provider] = modulePathOf(m);
                return (
                  <tr key={m.id}>
                    <td>
                      <Link to={appPath(org, 'registry', namespace, name, provider)}>{name}</Link>
                    </td>
                    <td>{provider}</td>
                    <td>{namespace}</td>
                    <td>
                      <Time at={m.attributes['updated-at']} />
                    </td>
                  </tr>
                );
              })}
            </Table>
          )
        }
      </Show>
    </Page>
  );
}

const FINAL_TEST = new Set(['finished', 'errored', 'canceled', 'force_canceled']);

function TestRun({ run }: { run: Resource }) {
  const [open, setOpen] = useState(false);
  const a = run.attributes;
  const counts = ['tests-passed', 'tests-failed', 'tests-errored', 'tests-skipped']
    .map((k) => `${str(a[k]) || 0} ${k.slice(6)}`)
    .join(', ');
  return (
    <tr>
      <td>{run.id}</td>
      <td>
        <Status value={a.status} />
      </td>
      <td>
        {a['test-status'] ? (
          <Status
            value={a['test-status'] === 'pass' ? 'passed' : a['test-status'] === 'fail' ? 'failed' : a['test-status']}
          />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>{counts}</td>
      <td>
        <Time at={a['created-at']} />
      </td>
      <td className="wide">
        {open ? (
          <LogView
            url={str(a['log-read-url'])}
            status={FINAL_TEST.has(str(a.status)) ? 'finished' : str(a.status)}
            label={`Output of test run ${run.id}`}
            tests
          />
        ) : (
          <button type="button" className="btn secondary" onClick={() => setOpen(true)}>
            Show output of {run.id}
          </button>
        )}
      </td>
    </tr>
  );
}

/** One module: its versions and its test runs with their `terraform test` output and results. */
export function ModulePage({
  org,
  namespace,
  name,
  provider,
}: {
  org: string;
  namespace: string;
  name: string;
  provider: string;
}) {
  const base = `/organizations/${encodeURIComponent(org)}`;
  const tail = ['private', namespace, name, provider].map(encodeURIComponent).join('/');
  const mod = useApi<Doc>(`${base}/registry-modules/${tail}`);
  const runs = useApi<ListDoc>(`${base}/tests/registry-modules/${tail}/test-runs?page[size]=50`, 5000);
  return (
    <Page
      title={`${namespace}/${name}/${provider}`}
      crumbs={[
        { label: org, to: appPath(org, 'workspaces') },
        { label: 'Registry', to: appPath(org, 'registry') },
      ]}
    >
      <Show loaded={mod} what="Loading module">
        {(d) => {
          const versions = Array.isArray(d.data.attributes['version-statuses'])
            ? (d.data.attributes['version-statuses'] as { version?: string; status?: string }[])
            : [];
          return (
            <section className="card" aria-labelledby="versions">
              <h2 id="versions">Versions</h2>
              {versions.length === 0 ? (
                <Empty>No published versions: this module is tested from uploaded configurations.</Empty>
              ) : (
                <ul>
                  {versions.map((v) => (
                    <li key={v.version}>
                      {v.version} <Status value={v.status} />
                    </li>
                  ))}
                </ul>
              )}
              <p className="muted small">
                Registry {str(d.data.attributes['registry-name'])} · created{' '}
                <Time at={d.data.attributes['created-at']} />
              </p>
            </section>
          );
        }}
      </Show>
      <section className="card" aria-labelledby="tests">
        <h2 id="tests">Test runs</h2>
        <Show loaded={runs} what="Loading test runs">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No test runs yet. Run terraform test with the cloud option to start one.</Empty>
            ) : (
              <Table head={['Test run', 'Status', 'Result', 'Tests', 'Started', 'Output']} caption="Test runs">
                {d.data.map((r) => (
                  <TestRun key={r.id} run={r} />
                ))}
              </Table>
            )
          }
        </Show>
      </section>
    </Page>
  );
}
