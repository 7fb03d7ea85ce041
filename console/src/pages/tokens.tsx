import { useState } from 'react';
import { doc, type Doc, type ListDoc } from '../api.js';
import { useSession } from '../session.js';
import { ActionButton, Empty, Field, Form, Page, Show, Table, Time, str } from '../ui.js';
import { useApi, write } from '../data.js';

/** The viewer's own API tokens: create one (shown once) and revoke any. */
export function TokensPage() {
  const { user } = useSession();
  const tokens = useApi<ListDoc>(`/users/${encodeURIComponent(user.id)}/authentication-tokens`);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = async () => {
    const body = await write<Doc>(
      'POST',
      `/users/${encodeURIComponent(user.id)}/authentication-tokens`,
      doc('token.create', 'authentication-tokens', { description }),
    );
    setCreated(str(body.data.attributes.token));
    setDescription('');
  };
  return (
    <Page title="API tokens">
      <p className="muted">
        Tokens act as you ({user.username}) with all of your access. The service shows a token once, when it is created.
      </p>
      <Form submit="Create token" onSubmit={create} className="card">
        <Field label="Description">
          <input required value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </Form>
      {created && (
        <div role="status" className="notice">
          <p>Your new token (copy it now, it is not shown again):</p>
          <code className="token" aria-label="New token">
            {created}
          </code>
        </div>
      )}
      <Show loaded={tokens} what="Loading tokens">
        {(d) =>
          d.data.length === 0 ? (
            <Empty>You have no API tokens.</Empty>
          ) : (
            <Table head={['Description', 'Created', 'Last used', 'Expires', '']} caption="Your API tokens">
              {d.data.map((t) => (
                <tr key={t.id}>
                  <td>{str(t.attributes.description) || <span className="muted">no description</span>}</td>
                  <td>
                    <Time at={t.attributes['created-at']} />
                  </td>
                  <td>
                    <Time at={t.attributes['last-used-at']} />
                  </td>
                  <td>
                    <Time at={t.attributes['expired-at']} />
                  </td>
                  <td>
                    <ActionButton
                      kind="danger"
                      label={`Revoke ${str(t.attributes.description) || t.id}`}
                      confirm="Revoke this token? Programs using it stop working."
                      onAction={() => write('DELETE', `/authentication-tokens/${t.id}`)}
                    />
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
    </Page>
  );
}
