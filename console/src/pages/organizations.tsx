import { useState } from 'react';
import { doc, type ListDoc } from '../api.js';
import { Link, appPath, navigate } from '../router.js';
import { ActionButton, Empty, Field, Form, Page, Show, Table, Time, relatedName, str } from '../ui.js';
import { useApi, write } from '../data.js';

/** The organizations the viewer belongs to, and a form to create one. */
export function OrganizationsPage() {
  const orgs = useApi<ListDoc>('/organizations?page[size]=100');
  const own = useApi<ListDoc>('/organization-memberships?page[size]=100');
  const invitations = (own.data?.data ?? []).filter((m) => m.attributes.status === 'invited');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = async () => {
    await write('POST', '/organizations', doc('organization.create', 'organizations', { name, email }));
    navigate(appPath(name, 'workspaces'));
  };
  return (
    <Page title="Organizations">
      {invitations.length > 0 && (
        <section className="card" aria-labelledby="invitations">
          <h2 id="invitations">Invitations</h2>
          <ul>
            {invitations.map((m) => (
              <li key={m.id} className="row">
                You are invited to <strong>{relatedName(m, 'organization')}</strong> (
                <Time at={m.attributes['created-at']} />
                ).
                <ActionButton
                  kind="primary"
                  label={`Accept the invitation to ${relatedName(m, 'organization')}`}
                  onAction={() => write('POST', `/organization-memberships/${m.id}/actions/accept`)}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
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
        <Form submit="Create organization" onSubmit={create}>
          <Field label="Organization name">
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Contact email">
            <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
        </Form>
      </details>
    </Page>
  );
}
