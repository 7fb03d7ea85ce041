import { useState, type FormEvent } from 'react';
import { call, doc, type ListDoc } from '../api.js';
import { Link, appPath, navigate } from '../router.js';
import { Empty, ErrorMessage, Field, Page, Show, Table, Time, messageOf, str, useApi } from '../ui.js';

/** The organizations the viewer belongs to, and a form to create one. */
export function OrganizationsPage() {
  const orgs = useApi<ListDoc>('/organizations?page[size]=100');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await call('POST', '/organizations', doc('organizations', { name, email }));
      navigate(appPath(name, 'workspaces'));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <Page title="Organizations">
      <Show loaded={orgs} what="Loading organizations">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>You do not belong to any organization yet. Create one below, or ask an owner to invite you.</Empty>
          ) : (
            <Table head={['Name', 'Email', 'Created']} caption="Organizations">
              {d.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={appPath(o.id, 'workspaces')}>{str(o.attributes.name) || o.id}</Link>
                  </td>
                  <td>{str(o.attributes.email)}</td>
                  <td>
                    <Time at={o.attributes['created-at']} />
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
      <details className="card">
        <summary>Create an organization</summary>
        <form onSubmit={(e) => void create(e)} className="form">
          <Field label="Organization name">
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Contact email">
            <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          {error && <ErrorMessage error={error} />}
          <button type="submit" className="btn primary">
            Create organization
          </button>
        </form>
      </details>
    </Page>
  );
}
