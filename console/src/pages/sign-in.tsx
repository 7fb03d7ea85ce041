import { useEffect, useState, type FormEvent } from 'react';
import { call } from '../api.js';
import { Link, navigate } from '../router.js';
import { userOf, type User } from '../session.js';
import { ErrorMessage, Field, Form } from '../ui.js';
import { messageOf, useApi } from '../data.js';

/** Only a path inside the console is followed after sign-in (never another site). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/app/') && !next.startsWith('//') && !next.startsWith('/app/sign-in')
    ? next
    : '/app/organizations';
}

interface Providers {
  providers: { name: string; label: string; start: string }[];
  'password-sign-in': 'everyone' | 'site-admins';
}

/** Sign-in buttons of the identity providers the operator configured (none: nothing shown). */
function ProviderButtons({ next }: { next: string | null }) {
  const found = useApi<Providers>('/api/console/sso');
  const providers = found.data?.providers ?? [];
  if (!providers.length) return null;
  return (
    <section className="card" aria-labelledby="providers">
      <h2 id="providers">With your organization&apos;s account</h2>
      <ul className="plain">
        {providers.map((p) => (
          <li key={p.name}>
            <a className="btn primary" href={`${p.start}?next=${encodeURIComponent(safeNext(next))}`}>
              Sign in with {p.label}
            </a>
          </li>
        ))}
      </ul>
      {found.data?.['password-sign-in'] === 'site-admins' && (
        <p className="muted small">Password sign-in below is for site admins only.</p>
      )}
    </section>
  );
}

export function SignInPage({
  next,
  refused,
  onSignedIn,
}: {
  next: string | null;
  /** Why a sign-in through a provider did not succeed (the service sends the browser back with it). */
  refused: string | null;
  onSignedIn: (user: User) => void;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Console';
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = await call<{ data: { id: string; attributes: Record<string, unknown> } }>(
        'POST',
        '/api/console/session',
        { username, password },
      );
      onSignedIn(userOf(body));
      navigate(safeNext(next), true);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="page narrow">
      <h1>Sign in</h1>
      {refused && <ErrorMessage error={refused} />}
      <ProviderButtons next={next} />
      <form onSubmit={(e) => void submit(e)} className="card form">
        <Field label="Username or email">
          <input
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field label="Password">
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {error && <ErrorMessage error={error} />}
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="muted">
        Invited? Open the link in your invitation to choose a password.{' '}
        <Link to="/app/forgot-password">Forgot your password?</Link>
      </p>
    </main>
  );
}

/** Choosing a password from an invitation link or a site admin's reset link. */
export function SetPasswordPage({ token, kind }: { token: string; kind: 'invitation' | 'reset' }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const title = kind === 'invitation' ? 'Accept your invitation' : 'Reset your password';
  useEffect(() => {
    document.title = `${title} · Console`;
  }, [title]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== again) return setError('The two passwords differ.');
    setError(null);
    try {
      await call('POST', '/api/console/password', { token, password });
      setDone(true);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <main className="page narrow">
      <h1>{title}</h1>
      {!token ? (
        <ErrorMessage error="This link has no token: open the whole link from your message." />
      ) : done ? (
        <p>
          Your password is set. <Link to="/app/sign-in">Sign in</Link>.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="card form">
          <Field label="New password">
            <input
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <Field label="New password again">
            <input
              type="password"
              autoComplete="new-password"
              required
              value={again}
              onChange={(e) => setAgain(e.target.value)}
            />
          </Field>
          {error && <ErrorMessage error={error} />}
          <button type="submit" className="btn primary">
            Set password
          </button>
        </form>
      )}
    </main>
  );
}

/** Forgot password: asks for a one-time link by email (the answer does not say whether the account exists). */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Reset your password · Console';
  }, []);
  return (
    <main className="page narrow">
      <h1>Forgot your password?</h1>
      <Form
        className="card"
        submit="Send me a link"
        onSubmit={async () => {
          const answer = await call<{ message: string }>('POST', '/api/console/password-reset', { email });
          setSent(answer.message);
        }}
      >
        <Field label="Email">
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
      </Form>
      {sent && <p role="status">{sent}</p>}
      <p>
        <Link to="/app/sign-in">Back to sign-in</Link>
      </p>
    </main>
  );
}
