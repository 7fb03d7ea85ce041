import { useState, type FormEvent } from 'react';
import { call, doc, type Doc } from '../api.js';
import { useSession } from '../session.js';
import { ErrorMessage, Field, Page, messageOf, str } from '../ui.js';

/** Site administration: creating users, and the queue board. */
export function AdminUsersPage() {
  const { user } = useSession();
  const [form, setForm] = useState({ username: '', email: '' });
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!user.isSiteAdmin) {
    return (
      <Page title="Site admin">
        <ErrorMessage error="Only site admins can use this page." />
      </Page>
    );
  }
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const body = await call<Doc>('POST', '/admin/users', doc('users', form));
      setCreated(`${str(body.data.attributes.username)} (${body.data.id})`);
      setForm({ username: '', email: '' });
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <Page title="Site admin">
      <section className="card" aria-labelledby="users">
        <h2 id="users">Users</h2>
        <p className="muted">A new user chooses a password through an organization invitation, or through a reset link.</p>
        <form onSubmit={(e) => void create(e)} className="form">
          <Field label="Username">
            <input required value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
          </Field>
          <Field label="Email">
            <input type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </Field>
          {error && <ErrorMessage error={error} />}
          {created && <p role="status">Created user {created}.</p>}
          <button type="submit" className="btn primary">
            Create user
          </button>
        </form>
      </section>
      <section className="card" aria-labelledby="queues">
        <h2 id="queues">Background jobs</h2>
        <p>
          <a href="/admin/queues/">Open the queue board</a> <span className="muted">(it asks for a site admin API token as the password)</span>
        </p>
      </section>
    </Page>
  );
}
