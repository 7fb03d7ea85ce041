import { useState } from 'react';
import { doc, type Doc, type ListDoc } from '../api.js';
import { useSession } from '../session.js';
import { Link, appPath } from '../router.js';
import {
  ActionButton,
  Empty,
  Pager,
  ErrorMessage,
  Field,
  Form,
  Page,
  Show,
  Table,
  Time,
  str,
  SearchForm,
} from '../ui.js';
import { useApi, write } from '../data.js';

/** Every organization of the service, searchable, for the site admin. */
function Organizations() {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const orgs = useApi<ListDoc>(
    `/admin/organizations?page[size]=20&page[number]=${page}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
  );
  return (
    <section className="card" aria-labelledby="orgs">
      <h2 id="orgs">Organizations</h2>
      <SearchForm
        label="Search organizations by name or email"
        placeholder="Name or email"
        button="Search organizations"
        onSearch={(words) => {
          setPage(1);
          setQ(words);
        }}
      />
      <Show loaded={orgs} what="Loading organizations">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>{q ? `No organization matches “${q}”.` : 'No organizations.'}</Empty>
          ) : (
            <Table head={['Name', 'Email', 'Created']} caption="All organizations">
              {d.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={appPath(o.id, 'workspaces')}>{o.id}</Link>
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
      <Pager list={orgs.data} setPage={setPage} label="Organization pages" />
    </section>
  );
}

/** A one-time password link for a user, shown to the site admin to pass on. */
function ResetLink({ userId, username }: { userId: string; username: string }) {
  const [link, setLink] = useState<{ url: string; expires: string } | null>(null);
  if (link) {
    return (
      <span className="small">
        <code className="token" aria-label={`Password link for ${username}`}>
          {link.url}
        </code>
        valid until <Time at={link.expires} />
      </span>
    );
  }
  return (
    <ActionButton
      label={`Password link for ${username}`}
      onAction={async () => {
        const body = await write<Doc>('POST', `/admin/users/${encodeURIComponent(userId)}/actions/reset-password`);
        setLink({ url: str(body.data.attributes['reset-url']), expires: str(body.data.attributes['expires-at']) });
      }}
    />
  );
}

/** Site administration: users (search, create, password links) and the queue board. */
export function AdminUsersPage() {
  const { user } = useSession();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const users = useApi<ListDoc>(
    user.isSiteAdmin
      ? `/admin/users?page[size]=50&page[number]=${page}${q ? `&q=${encodeURIComponent(q)}` : ''}`
      : null,
  );
  const [form, setForm] = useState({ username: '', email: '' });
  const [created, setCreated] = useState<string | null>(null);
  if (!user.isSiteAdmin) {
    return (
      <Page title="Site admin">
        <ErrorMessage error="Only site admins can use this page." />
      </Page>
    );
  }
  const create = async () => {
    const body = await write<Doc>('POST', '/admin/users', doc('user.create', 'users', form));
    setCreated(`${str(body.data.attributes.username)} (${body.data.id})`);
    setForm({ username: '', email: '' });
  };
  return (
    <Page title="Site admin">
      <section className="card" aria-labelledby="users">
        <h2 id="users">Users</h2>
        <SearchForm
          label="Search users by username or email"
          placeholder="Username or email"
          button="Search users"
          onSearch={(words) => {
            setPage(1);
            setQ(words);
          }}
        />
        <Show loaded={users} what="Loading users">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>{q ? `No user matches “${q}”.` : 'No users.'}</Empty>
            ) : (
              <Table head={['Username', 'Email', 'Site admin', 'Password', 'Access']} caption="Users">
                {d.data.map((u) => {
                  const name = str(u.attributes.username);
                  const suspended = u.attributes['is-suspended'] === true;
                  return (
                    <tr key={u.id}>
                      <td>{name}</td>
                      <td>{str(u.attributes.email)}</td>
                      <td>{u.attributes['is-site-admin'] ? 'yes' : ''}</td>
                      <td>
                        <ResetLink userId={u.id} username={name} />
                      </td>
                      <td>
                        {suspended && <span className="pill">suspended</span>}{' '}
                        {u.id !== user.id && (
                          <ActionButton
                            kind={suspended ? 'secondary' : 'danger'}
                            label={suspended ? 'Unsuspend' : 'Suspend'}
                            name={`${suspended ? 'Unsuspend' : 'Suspend'} ${name}`}
                            confirm={suspended ? undefined : `Suspend ${name}? Their tokens and sessions stop working.`}
                            onAction={() =>
                              write(
                                'POST',
                                `/admin/users/${encodeURIComponent(u.id)}/actions/${suspended ? 'unsuspend' : 'suspend'}`,
                              )
                            }
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </Table>
            )
          }
        </Show>
        <Pager list={users.data} setPage={setPage} label="User pages" prev="Previous users" next="Next users" />
        <details>
          <summary>Create a user</summary>
          <p className="muted">
            A new user chooses a password through an organization invitation, or through a password link.
          </p>
          <Form submit="Create user" onSubmit={create}>
            <Field label="Username">
              <input required value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
            </Field>
            <Field label="Email">
              <input
                type="email"
                required
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
              />
            </Field>
          </Form>
          {created && <p role="status">Created user {created}.</p>}
        </details>
      </section>
      <Organizations />
      <section className="card" aria-labelledby="queues">
        <h2 id="queues">Background jobs</h2>
        <p>
          <a href="/admin/queues/">Open the queue board</a>{' '}
          <span className="muted">(it asks for a site admin API token as the password)</span>
        </p>
      </section>
    </Page>
  );
}
