import { useState } from 'react';
import { doc, related, type ListDoc, type Resource } from '../api.js';
import { Link, appPath, navigate } from '../router.js';
import {
  Empty,
  Pager,
  useOrgPermissions,
  Field,
  Form,
  Page,
  Show,
  Status,
  Table,
  Time,
  str,
  SearchForm,
} from '../ui.js';
import { useApi, write } from '../data.js';

/**
 * A workspace's current run (its newest non-speculative one, as the API's `current-run` says), read
 * from the list's own answer: a speculative plan is not the workspace's state.
 */
function CurrentRun({ org, ws, run }: { org: string; ws: string; run: Resource | undefined }) {
  if (!run) return <span className="muted">no runs yet</span>;
  return (
    <Link
      to={appPath(org, 'workspaces', ws, 'runs', run.id)}
      aria-label={`Current run of ${ws}: ${str(run.attributes.status).replace(/_/g, ' ')}`}
    >
      <Status value={run.attributes.status} />
    </Link>
  );
}

/** An organization's workspaces, searchable by name, with each one's latest run. */
export function WorkspacesPage({ org, search }: { org: string; search: string }) {
  const [page, setPage] = useState(1);
  const path = `/organizations/${encodeURIComponent(org)}/workspaces?page[size]=20&page[number]=${page}&include=current_run${search ? `&search[name]=${encodeURIComponent(search)}` : ''}`;
  const list = useApi<ListDoc>(path);
  const perms = useOrgPermissions(org);
  const [name, setName] = useState('');
  const create = async () => {
    await write(
      'POST',
      `/organizations/${encodeURIComponent(org)}/workspaces`,
      doc('workspace.create', 'workspaces', { name }),
    );
    navigate(appPath(org, 'workspaces', name));
  };
  return (
    <Page title="Workspaces" crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <SearchForm
        label="Search workspaces by name"
        placeholder="Search by name"
        button="Search"
        initial={search}
        onSearch={(query) => {
          setPage(1);
          navigate(`${appPath(org, 'workspaces')}${query ? `?search=${encodeURIComponent(query)}` : ''}`, true);
        }}
      />
      <Show loaded={list} what="Loading workspaces">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>
              {search
                ? `No workspace matches “${search}”.`
                : 'No workspaces yet. Terraform creates one on its first run, or create one here if you may.'}
            </Empty>
          ) : (
            <Table head={['Name', 'Current run', 'Terraform', 'Locked', 'Updated']} caption="Workspaces">
              {d.data.map((w) => {
                const name = str(w.attributes.name);
                return (
                  <tr key={w.id}>
                    <td>
                      <Link to={appPath(org, 'workspaces', name)}>{name}</Link>
                    </td>
                    <td>
                      <CurrentRun org={org} ws={name} run={related(d, w, 'current-run')} />
                    </td>
                    <td>{str(w.attributes['terraform-version'])}</td>
                    <td>{w.attributes.locked ? 'locked' : ''}</td>
                    <td>
                      <Time at={w.attributes['updated-at']} />
                    </td>
                  </tr>
                );
              })}
            </Table>
          )
        }
      </Show>
      <Pager list={list.data} setPage={setPage} label="Pages" />
      {perms['can-create-workspace'] && (
        <details className="card">
          <summary>Create a workspace</summary>
          <Form submit="Create workspace" onSubmit={create}>
            <Field label="Workspace name">
              <input required value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
          </Form>
        </details>
      )}
    </Page>
  );
}
