import { useCallback, useEffect, useState } from 'react';
import { Outlet, useParams, useRouterState } from '@tanstack/react-router';
import { ApiFailure, call } from './api.js';
import { queryClient } from './data.js';
import { Link, navigate } from './router.js';
import { SessionContext, signInUrl, userOf, type User } from './session.js';
import { ErrorMessage, Loading, Page } from './ui.js';

function Header({ user, signOut }: { user: User; signOut: () => void }) {
  // The organization of the page's own route, when it has one.
  const { org } = useParams({ strict: false }) as { org?: string };
  const o = org ? `/app/${encodeURIComponent(org)}` : '';
  return (
    <header className="top">
      <Link to="/app/organizations" className="brand">
        Console
      </Link>
      <nav aria-label="Main" className="main-nav">
        <Link to="/app/organizations">Organizations</Link>
        {org && (
          <>
            <Link to={`${o}/workspaces`}>Workspaces</Link>
            <Link to={`${o}/variable-sets`}>Variable sets</Link>
            <Link to={`${o}/registry`}>Registry</Link>
            <Link to={`${o}/policies`}>Policies</Link>
            <Link to={`${o}/teams`}>Teams</Link>
          </>
        )}
        <Link to="/app/settings/tokens">API tokens</Link>
        {user.isSiteAdmin && <Link to="/app/admin/users">Site admin</Link>}
      </nav>
      <div className="who">
        <span className="muted">{user.username}</span>
        <button type="button" className="btn secondary" onClick={signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}

/** Who is signed in, shared by the sign-in page (which sets it) and the signed-in layout. */
let known: User | null = null;
export const rememberUser = (user: User | null) => {
  known = user;
};

/**
 * The layout of every page but sign-in and the password pages: the session is checked first (a
 * visitor without one is sent to sign in and brought back), then the header and the page.
 */
export function SignedInLayout() {
  const href = useRouterState({ select: (s) => s.location.href });
  const [session, setSession] = useState<{ user: User | null; error: string | null }>({ user: known, error: null });
  useEffect(() => {
    if (session.user) return;
    let alive = true;
    call<{ data: { id: string; attributes: Record<string, unknown> } }>('GET', '/api/console/session')
      .then((body) => {
        if (!alive) return;
        rememberUser(userOf(body));
        setSession({ user: userOf(body), error: null });
      })
      .catch((err: unknown) => {
        if (!alive) return;
        if (err instanceof ApiFailure && err.status === 401) navigate(signInUrl(href), true);
        else setSession({ user: null, error: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      alive = false;
    };
  }, [session.user, href]);

  const signOut = useCallback(async () => {
    try {
      await call('DELETE', '/api/console/session');
    } finally {
      queryClient.clear();
      rememberUser(null);
      setSession({ user: null, error: null });
      navigate('/app/sign-in', true);
    }
  }, []);

  if (!session.user) {
    return (
      <main className="page">
        <h1>Console</h1>
        {session.error ? <ErrorMessage error={session.error} /> : <Loading what="Checking your session" />}
      </main>
    );
  }
  return (
    <SessionContext.Provider value={{ user: session.user, signOut }}>
      <Header user={session.user} signOut={() => void signOut()} />
      <Outlet />
    </SessionContext.Provider>
  );
}

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <Link to="/app/organizations">Go to your organizations</Link>.
      </p>
    </Page>
  );
}
