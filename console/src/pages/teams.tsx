import { useState } from 'react';
import { doc, relatedIds, type Doc, type ListDoc } from '../api.js';
import { Link, appPath } from '../router.js';
import { ActionButton, Empty, useOrgPermissions, Field, Form, Page, Show, Status, Table, Time, str } from '../ui.js';
import { useApi, write } from '../data.js';

/** The organization's teams and its memberships (invitations included). */
export function TeamsPage({ org }: { org: string }) {
  const base = `/organizations/${encodeURIComponent(org)}`;
  const teams = useApi<ListDoc>(`${base}/teams?page[size]=100`);
  const members = useApi<ListDoc>(`${base}/organization-memberships?page[size]=100&include=user`);
  const perms = useOrgPermissions(org);
  const [email, setEmail] = useState('');
  const invite = async () => {
    await write(
      'POST',
      `${base}/organization-memberships`,
      doc('membership.create', 'organization-memberships', { email }),
    );
    setEmail('');
  };
  return (
    <Page title="Teams and members" crumbs={[{ label: org, to: appPath(org, 'workspaces') }]}>
      <section className="card" aria-labelledby="teams">
        <h2 id="teams">Teams</h2>
        <Show loaded={teams} what="Loading teams">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No teams you can see.</Empty>
            ) : (
              <Table head={['Team', 'Members', 'Visibility']} caption="Teams">
                {d.data.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Link to={appPath(org, 'teams', t.id)}>{str(t.attributes.name)}</Link>
                    </td>
                    <td>{str(t.attributes['users-count'])}</td>
                    <td>{str(t.attributes.visibility)}</td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Show>
      </section>
      <section className="card" aria-labelledby="members">
        <h2 id="members">Organization memberships</h2>
        <Show loaded={members} what="Loading memberships">
          {(d) =>
            d.data.length === 0 ? (
              <Empty>No memberships you can see.</Empty>
            ) : (
              <Table head={['User', 'Email', 'Status', 'Since']} caption="Organization memberships">
                {d.data.map((m) => {
                  const user = d.included?.find((i) => i.type === 'users' && i.id === relatedIds(m, 'user')[0]);
                  return (
                    <tr key={m.id}>
                      <td>{user ? str(user.attributes.username) : ''}</td>
                      <td>{str(m.attributes.email)}</td>
                      <td>
                        <Status value={m.attributes.status} />
                      </td>
                      <td>
                        <Time at={m.attributes['created-at']} />
                      </td>
                    </tr>
                  );
                })}
              </Table>
            )
          }
        </Show>
        {perms['can-manage-users'] && (
          <Form submit="Send invitation" onSubmit={invite} className="row">
            <Field label="Invite by email">
              <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
          </Form>
        )}
      </section>
    </Page>
  );
}

/** One team: its members, and (when allowed) adding and removing them. */
export function TeamPage({ org, teamId }: { org: string; teamId: string }) {
  const team = useApi<Doc>(`/teams/${encodeURIComponent(teamId)}?include=users`);
  const [username, setUsername] = useState('');
  const change = (method: 'POST' | 'DELETE', name: string) =>
    write(method, `/teams/${encodeURIComponent(teamId)}/relationships/users`, {
      data: [{ type: 'users', id: name }],
    });
  return (
    <Page
      title={team.data ? `Team ${str(team.data.data.attributes.name)}` : 'Team'}
      crumbs={[
        { label: org, to: appPath(org, 'workspaces') },
        { label: 'Teams', to: appPath(org, 'teams') },
      ]}
    >
      <Show loaded={team} what="Loading team">
        {(d) => {
          const perms = (d.data.attributes.permissions ?? {}) as Record<string, boolean>;
          const users = (d.included ?? []).filter((i) => i.type === 'users');
          return (
            <>
              <section className="card" aria-labelledby="team-members">
                <h2 id="team-members">Members</h2>
                {users.length === 0 ? (
                  <Empty>No members.</Empty>
                ) : (
                  <Table head={['User', 'Email', '']} caption="Team members">
                    {users.map((u) => (
                      <tr key={u.id}>
                        <td>{str(u.attributes.username)}</td>
                        <td>{str(u.attributes.email)}</td>
                        <td>
                          {perms['can-update-membership'] && (
                            <ActionButton
                              label={`Remove ${str(u.attributes.username)}`}
                              onAction={() => change('DELETE', str(u.attributes.username))}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </Table>
                )}
                {perms['can-update-membership'] && (
                  <Form
                    submit="Add member"
                    className="row"
                    onSubmit={async () => {
                      await change('POST', username);
                      setUsername('');
                    }}
                  >
                    <Field label="Add a member by username">
                      <input required value={username} onChange={(e) => setUsername(e.target.value)} />
                    </Field>
                  </Form>
                )}
              </section>
              <section className="card" aria-labelledby="team-access">
                <h2 id="team-access">Organization access</h2>
                <ul>
                  {Object.entries((d.data.attributes['organization-access'] ?? {}) as Record<string, boolean>).map(
                    ([k, v]) => (
                      <li key={k}>
                        {k.replace(/-/g, ' ')}: {v ? 'yes' : 'no'}
                      </li>
                    ),
                  )}
                </ul>
                <p className="muted small">
                  Created <Time at={d.data.attributes['created-at']} />
                </p>
              </section>
            </>
          );
        }}
      </Show>
    </Page>
  );
}
