import { useState } from 'react';
import { ApiFailure, doc, samePath, type Doc, type ListDoc, type Resource } from '../api.js';
import { Link, appPath, navigate } from '../router.js';
import { DialogButton, Empty, Field, Form, Page, Show, Status, Table, Time, str, useOrgPermissions } from '../ui.js';
import { useApi, write } from '../data.js';
import { SafeMarkdown } from '../markdown.js';
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
  const perms = useOrgPermissions(org);
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
      {perms['can-create-module'] && <NewModule org={org} />}
    </Page>
  );
}

/** Adds a module to the private registry; its versions are then published from archives. */
function NewModule({ org }: { org: string }) {
  const [form, setForm] = useState({ name: '', provider: '' });
  return (
    <section className="card" aria-labelledby="new-module">
      <h2 id="new-module">Add a module</h2>
      <Form
        submit="Add module"
        onSubmit={async () => {
          await write(
            'POST',
            `/organizations/${encodeURIComponent(org)}/registry-modules`,
            doc('registry-module.create', 'registry-modules', { ...form, 'registry-name': 'private' }),
          );
          navigate(appPath(org, 'registry', org, form.name, form.provider));
        }}
      >
        <Field label="Module name">
          <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label="Provider" hint="Lower-case letters and digits, such as aws or null.">
          <input required value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value })} />
        </Field>
      </Form>
    </section>
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

/** Publishes a version: the version is created, then its archive (a .tar.gz of the module) uploaded to it. */
function PublishVersion({ base, onPublished }: { base: string; onPublished: (version: string) => void }) {
  const [version, setVersion] = useState('');
  const [file, setFile] = useState<File | null>(null);
  return (
    <DialogButton label="Publish a version" title="Publish a module version" kind="primary">
      {(close) => (
        <Form
          submit="Publish version"
          onSubmit={async () => {
            if (!file) throw new ApiFailure(422, 'Choose the module archive (.tar.gz) to publish.');
            const made = await write<Doc>(
              'POST',
              `${base}/versions`,
              doc('registry-module-version.create', 'registry-module-versions', { version }),
            );
            const upload = made.data.links?.upload;
            if (!upload) throw new ApiFailure(500, 'The service gave no upload address for the version.');
            await write('PUT', samePath(upload), file);
            onPublished(version);
            close();
          }}
        >
          <Field label="Version" hint="A semantic version, such as 1.0.0.">
            <input required value={version} onChange={(e) => setVersion(e.target.value)} />
          </Field>
          <Field label="Module archive (.tar.gz)">
            <input
              type="file"
              accept=".tar.gz,.tgz,application/gzip"
              required
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Field>
        </Form>
      )}
    </DialogButton>
  );
}

interface ModuleInput {
  name: string;
  type: string;
  description: string;
  default: string;
  required: boolean;
}

interface ModuleDetail {
  source: string;
  root: { readme: string; inputs: ModuleInput[]; outputs: { name: string; description: string }[] };
}

/** A published version as the registry protocol describes it: usage, README, inputs and outputs. */
function ModuleVersion(props: { org: string; namespace: string; name: string; provider: string; version: string }) {
  const path = [props.namespace, props.name, props.provider, props.version].map(encodeURIComponent).join('/');
  const detail = useApi<ModuleDetail>(`/api/registry/v1/modules/${path}`);
  return (
    <section className="card" aria-labelledby="module-version">
      <h2 id="module-version">Version {props.version}</h2>
      <Show loaded={detail} what="Loading the version">
        {(d) => {
          const required = d.root.inputs.filter((i) => i.required);
          const usage = [
            `module "${props.name}" {`,
            `  source  = "${d.source}"`,
            `  version = "${props.version}"`,
            ...required.map((i) => `  ${i.name} = # ${i.type || 'any'}`),
            '}',
          ].join('\n');
          return (
            <>
              <h3>Usage</h3>
              <pre className="log-text" aria-label="Usage" tabIndex={0}>
                {usage}
              </pre>
              <h3>README</h3>
              {d.root.readme ? (
                <SafeMarkdown source={d.root.readme} label="README" />
              ) : (
                <Empty>This version has no README.</Empty>
              )}
              <h3>Inputs</h3>
              {d.root.inputs.length === 0 ? (
                <Empty>No inputs.</Empty>
              ) : (
                <Table head={['Name', 'Type', 'Description', 'Default']} caption="Inputs">
                  {d.root.inputs.map((i) => (
                    <tr key={i.name}>
                      <td>
                        <code>{i.name}</code> {i.required && <span className="pill">required</span>}
                      </td>
                      <td>
                        <code>{i.type}</code>
                      </td>
                      <td>{i.description}</td>
                      <td>{i.default && <code>{i.default}</code>}</td>
                    </tr>
                  ))}
                </Table>
              )}
              <h3>Outputs</h3>
              {d.root.outputs.length === 0 ? (
                <Empty>No outputs.</Empty>
              ) : (
                <Table head={['Name', 'Description']} caption="Outputs">
                  {d.root.outputs.map((o) => (
                    <tr key={o.name}>
                      <td>
                        <code>{o.name}</code>
                      </td>
                      <td>{o.description}</td>
                    </tr>
                  ))}
                </Table>
              )}
            </>
          );
        }}
      </Show>
    </section>
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
  const perms = useOrgPermissions(org);
  const [chosen, setChosen] = useState<string | null>(null);
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
          const published = versions.filter((v) => v.status === 'ok').map((v) => v.version!);
          const shown = chosen && published.includes(chosen) ? chosen : published[0];
          const canPublish = perms['can-create-module'] && !d.data.attributes['vcs-repo'];
          return (
            <>
              <section className="card" aria-labelledby="versions">
                <h2 id="versions">Versions</h2>
                {versions.length === 0 ? (
                  <Empty>No published versions yet.</Empty>
                ) : (
                  <ul className="plain">
                    {versions.map((v) => (
                      <li key={v.version}>
                        {v.status === 'ok' ? (
                          <button
                            type="button"
                            className="btn secondary"
                            aria-pressed={v.version === shown}
                            onClick={() => setChosen(v.version!)}
                          >
                            {v.version}
                          </button>
                        ) : (
                          v.version
                        )}{' '}
                        <Status value={v.status} />
                      </li>
                    ))}
                  </ul>
                )}
                <p className="muted small">
                  Registry {str(d.data.attributes['registry-name'])} · created{' '}
                  <Time at={d.data.attributes['created-at']} />
                </p>
                {canPublish && <PublishVersion base={`${base}/registry-modules/${tail}`} onPublished={setChosen} />}
              </section>
              {shown && (
                <ModuleVersion org={org} namespace={namespace} name={name} provider={provider} version={shown} />
              )}
            </>
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
