import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './data.js';
import { ApiFailure, call } from './api.js';
import { Link, match, navigate, useLocation, type Location } from './router.js';
import { SessionContext, signInUrl, userOf, type User } from './session.js';
import { ErrorMessage, Loading, Page } from './ui.js';
import { SignInPage, SetPasswordPage } from './pages/sign-in.js';
import { RunPage } from './pages/run.js';
import { OrganizationsPage } from './pages/organizations.js';
import { WorkspacesPage } from './pages/workspaces.js';
import { WorkspacePage } from './pages/workspace.js';
import { RegistryPage, ModulePage } from './pages/registry.js';
import { PoliciesPage } from './pages/policies.js';
import { TeamsPage, TeamPage } from './pages/teams.js';
import { TokensPage } from './pages/tokens.js';
import { VariableSetPage, VariableSetsPage } from './pages/variables.js';
import { AdminUsersPage } from './pages/admin.js';
import { ConsentPage } from './pages/oauth.js';
import './styles.css';

/** Second segments under /app/:org that are pages of the organization, not workspace names. */
const ORG_PAGES = new Set(['workspaces', 'registry', 'policies', 'teams', 'variable-sets']);

/** The page for a signed-in user at `loc` (every URL the service and the CLI print is here). */
function routed(loc: Location) {
  const p = loc.path;
  let m: Record<string, string> | null;
  if (p === '/app' || p === '/app/organizations') return <OrganizationsPage />;
  if (p === '/app/settings/tokens') return <TokensPage />;
  if (p === '/app/admin/users') return <AdminUsersPage />;
  if (p === '/app/oauth/authorize') return <ConsentPage query={loc.query} />;
  if ((m = match('/app/:org/workspaces/:ws/runs/:run', p))) return <RunPage org={m.org} ws={m.ws} runId={m.run} />;
  // The form the terraform CLI prints: /app/<org>/<workspace>/runs/<run>.
  if ((m = match('/app/:org/:ws/runs/:run', p))) return <RunPage org={m.org} ws={m.ws} runId={m.run} />;
  if ((m = match('/app/:org/workspaces/:ws/:tab', p))) return <WorkspacePage org={m.org} ws={m.ws} tab={m.tab} />;
  if ((m = match('/app/:org/workspaces/:ws', p))) return <WorkspacePage org={m.org} ws={m.ws} tab="runs" />;
  if ((m = match('/app/:org/workspaces', p)))
    return <WorkspacesPage org={m.org} search={loc.query.get('search') ?? ''} />;
  if ((m = match('/app/:org/registry/:namespace/:name/:provider', p)))
    return <ModulePage org={m.org} namespace={m.namespace} name={m.name} provider={m.provider} />;
  if ((m = match('/app/:org/registry', p))) return <RegistryPage org={m.org} />;
  if ((m = match('/app/:org/policies', p))) return <PoliciesPage org={m.org} />;
  if ((m = match('/app/:org/variable-sets/:id', p))) return <VariableSetPage org={m.org} id={m.id} />;
  if ((m = match('/app/:org/variable-sets', p))) return <VariableSetsPage org={m.org} />;
  if ((m = match('/app/:org/teams/:team', p))) return <TeamPage org={m.org} teamId={m.team} />;
  if ((m = match('/app/:org/teams', p))) return <TeamsPage org={m.org} />;
  if ((m = match('/app/:org/:ws', p)) && !ORG_PAGES.has(m.ws))
    return <WorkspacePage org={m.org} ws={m.ws} tab="runs" />;
  if ((m = match('/app/:org', p))) {
    navigate(`/app/${encodeURIComponent(m.org)}/workspaces`, true);
    return null;
  }
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <Link to="/app/organizations">Go to your organizations</Link>.
      </p>
    </Page>
  );
}

/** The organization a path is about, for the header's navigation. */
function orgOf(path: string): string | null {
  const m = /^\/app\/([^/]+)/.exec(path);
  if (!m || ['organizations', 'settings', 'admin', 'oauth', 'sign-in'].includes(m[1])) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

function Header({ user, path, signOut }: { user: User; path: string; signOut: () => void }) {
  const org = orgOf(path);
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

function App() {
  const loc = useLocation();
  const [session, setSession] = useState<{ user: User | null; error: string | null; checked: boolean }>({
    user: null,
    error: null,
    checked: false,
  });
  const publicPage =
    loc.path === '/app/sign-in' || loc.path === '/app/accept-invitation' || loc.path === '/app/reset-password';

  useEffect(() => {
    if (publicPage || session.user) return;
    let alive = true;
    call<{ data: { id: string; attributes: Record<string, unknown> } }>('GET', '/api/console/session')
      .then((body) => alive && setSession({ user: userOf(body), error: null, checked: true }))
      .catch((err: unknown) => {
        if (!alive) return;
        if (err instanceof ApiFailure && err.status === 401) navigate(signInUrl(loc.href), true);
        else setSession({ user: null, error: err instanceof Error ? err.message : String(err), checked: true });
      });
    return () => {
      alive = false;
    };
  }, [publicPage, session.user, loc.href]);

  const signOut = useCallback(async () => {
    try {
      await call('DELETE', '/api/console/session');
    } finally {
      queryClient.clear();
      setSession({ user: null, error: null, checked: false });
      navigate('/app/sign-in', true);
    }
  }, []);

  if (loc.path === '/app/sign-in')
    return (
      <SignInPage
        next={loc.query.get('next')}
        onSignedIn={(user) => setSession({ user, error: null, checked: true })}
      />
    );
  if (loc.path === '/app/accept-invitation')
    return <SetPasswordPage token={loc.query.get('token') ?? ''} kind="invitation" />;
  if (loc.path === '/app/reset-password') return <SetPasswordPage token={loc.query.get('token') ?? ''} kind="reset" />;
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
      <Header user={session.user} path={loc.path} signOut={() => void signOut()} />
      {routed(loc)}
    </SessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
