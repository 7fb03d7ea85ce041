import { createRootRoute, createRoute, createRouter, Outlet, redirect, useRouterState } from '@tanstack/react-router';
import { history } from './router.js';
import { NotFoundPage, rememberUser, SignedInLayout } from './shell.js';
import { ForgotPasswordPage, SignInPage, SetPasswordPage } from './pages/sign-in.js';
import { RunPage } from './pages/run.js';
import { OrganizationsPage } from './pages/organizations.js';
import { WorkspacesPage } from './pages/workspaces.js';
import { TABS, WorkspaceLayout, WorkspaceTab, type WorkspaceTabId } from './pages/workspace.js';
import { RegistryPage, ModulePage } from './pages/registry.js';
import { PoliciesPage } from './pages/policies.js';
import { TeamsPage, TeamPage } from './pages/teams.js';
import { TokensPage } from './pages/tokens.js';
import { VariableSetPage, VariableSetsPage } from './pages/variables.js';
import { AdminUsersPage } from './pages/admin.js';
import { ConsentPage } from './pages/oauth.js';

/*
 * Every console URL, as one tree: the pages anyone may open (sign-in, the password links), and
 * under the signed-in layout (session, header) everything else. Each page reads its parameters
 * from its own route, typed by the route's path. The URLs the service and the terraform CLI print
 * (`/app/<org>/<workspace>`, `/app/<org>/<workspace>/runs/<run>`) are routes too.
 */

/** Search parameters are kept as the strings they are (OAuth's state, a token, a search). */
const search =
  <K extends string>(...keys: K[]) =>
  (s: Record<string, unknown>) =>
    Object.fromEntries(keys.map((k) => [k, typeof s[k] === 'string' ? s[k] : ''])) as Record<K, string>;

const root = createRootRoute({ component: Outlet, notFoundComponent: NotFoundPage });

const signIn = createRoute({
  getParentRoute: () => root,
  path: '/app/sign-in',
  validateSearch: search('next', 'error'),
  component: function SignInRoute() {
    const { next, error } = signIn.useSearch();
    return <SignInPage next={next || null} refused={error || null} onSignedIn={rememberUser} />;
  },
});

const tokenSearch = search('token');

const acceptInvitation = createRoute({
  getParentRoute: () => root,
  path: '/app/accept-invitation',
  validateSearch: tokenSearch,
  component: function AcceptRoute() {
    return <SetPasswordPage token={acceptInvitation.useSearch().token} kind="invitation" />;
  },
});

const resetPassword = createRoute({
  getParentRoute: () => root,
  path: '/app/reset-password',
  validateSearch: tokenSearch,
  component: function ResetRoute() {
    return <SetPasswordPage token={resetPassword.useSearch().token} kind="reset" />;
  },
});

const forgotPassword = createRoute({
  getParentRoute: () => root,
  path: '/app/forgot-password',
  component: ForgotPasswordPage,
});

const signedIn = createRoute({ getParentRoute: () => root, id: 'signed-in', component: SignedInLayout });
const under = () => signedIn;

const home = createRoute({ getParentRoute: under, path: '/app', component: OrganizationsPage });
const organizations = createRoute({ getParentRoute: under, path: '/app/organizations', component: OrganizationsPage });
const tokens = createRoute({ getParentRoute: under, path: '/app/settings/tokens', component: TokensPage });
const admin = createRoute({ getParentRoute: under, path: '/app/admin/users', component: AdminUsersPage });
const consent = createRoute({
  getParentRoute: under,
  path: '/app/oauth/authorize',
  // The CLI's parameters are read exactly as sent (see search above).
  component: function ConsentRoute() {
    const href = useRouterState({ select: (s) => s.location.searchStr });
    return <ConsentPage query={new URLSearchParams(href)} />;
  },
});

const organization = createRoute({
  getParentRoute: under,
  path: '/app/$org',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/app/$org/workspaces', params, replace: true });
  },
});

const workspaces = createRoute({
  getParentRoute: under,
  path: '/app/$org/workspaces',
  validateSearch: search('search'),
  component: function WorkspacesRoute() {
    const { org } = workspaces.useParams();
    return <WorkspacesPage org={org} search={workspaces.useSearch().search} />;
  },
});

/** A workspace's layout (overview and tabs) around the route of its tab. */
const workspace = createRoute({
  getParentRoute: under,
  path: '/app/$org/workspaces/$ws',
  component: function WorkspaceRoute() {
    const { org, ws } = workspace.useParams();
    const path = useRouterState({ select: (s) => s.location.pathname });
    const last = path.split('/')[5] ?? 'runs';
    const tab = (TABS.some((t) => t.id === last) ? last : 'runs') as WorkspaceTabId;
    return (
      <WorkspaceLayout org={org} ws={ws} tab={tab}>
        <Outlet />
      </WorkspaceLayout>
    );
  },
});

const tabRoute = (tab: WorkspaceTabId, path: string) =>
  createRoute({
    getParentRoute: () => workspace,
    path,
    component: function TabRoute() {
      return <WorkspaceTab org={workspace.useParams().org} tab={tab} />;
    },
  });

const workspaceTabs = [tabRoute('runs', '/'), ...TABS.map((t) => tabRoute(t.id, t.id))];

const run = createRoute({
  getParentRoute: under,
  path: '/app/$org/workspaces/$ws/runs/$run',
  component: function RunRoute() {
    const { org, ws, run: id } = run.useParams();
    return <RunPage org={org} ws={ws} runId={id} />;
  },
});

/** The run URL the terraform CLI prints. */
const cliRun = createRoute({
  getParentRoute: under,
  path: '/app/$org/$ws/runs/$run',
  component: function CliRunRoute() {
    const { org, ws, run: id } = cliRun.useParams();
    return <RunPage org={org} ws={ws} runId={id} />;
  },
});

/** The workspace URL the terraform CLI prints. */
const cliWorkspace = createRoute({
  getParentRoute: under,
  path: '/app/$org/$ws',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/app/$org/workspaces/$ws', params, replace: true });
  },
});

const registry = createRoute({
  getParentRoute: under,
  path: '/app/$org/registry',
  component: function RegistryRoute() {
    return <RegistryPage org={registry.useParams().org} />;
  },
});

const module = createRoute({
  getParentRoute: under,
  path: '/app/$org/registry/$namespace/$name/$provider',
  component: function ModuleRoute() {
    const p = module.useParams();
    return <ModulePage org={p.org} namespace={p.namespace} name={p.name} provider={p.provider} />;
  },
});

const policies = createRoute({
  getParentRoute: under,
  path: '/app/$org/policies',
  component: function PoliciesRoute() {
    return <PoliciesPage org={policies.useParams().org} />;
  },
});

const variableSets = createRoute({
  getParentRoute: under,
  path: '/app/$org/variable-sets',
  component: function VariableSetsRoute() {
    return <VariableSetsPage org={variableSets.useParams().org} />;
  },
});

const variableSet = createRoute({
  getParentRoute: under,
  path: '/app/$org/variable-sets/$id',
  component: function VariableSetRoute() {
    const { org, id } = variableSet.useParams();
    return <VariableSetPage org={org} id={id} />;
  },
});

const teams = createRoute({
  getParentRoute: under,
  path: '/app/$org/teams',
  component: function TeamsRoute() {
    return <TeamsPage org={teams.useParams().org} />;
  },
});

const team = createRoute({
  getParentRoute: under,
  path: '/app/$org/teams/$team',
  component: function TeamRoute() {
    const { org, team: id } = team.useParams();
    return <TeamPage org={org} teamId={id} />;
  },
});

const elsewhere = createRoute({ getParentRoute: under, path: '/app/$', component: NotFoundPage });

const tree = root.addChildren([
  signIn,
  acceptInvitation,
  resetPassword,
  forgotPassword,
  signedIn.addChildren([
    home,
    organizations,
    tokens,
    admin,
    consent,
    organization,
    workspaces,
    workspace.addChildren(workspaceTabs),
    run,
    cliRun,
    cliWorkspace,
    registry,
    module,
    policies,
    variableSets,
    variableSet,
    teams,
    team,
    elsewhere,
  ]),
]);

export const router = createRouter({
  routeTree: tree,
  history,
  // Plain query strings, not JSON: every value stays the string the URL has.
  parseSearch: (s) => Object.fromEntries(new URLSearchParams(s)),
  // Empty values are left out, so a page without a search keeps its plain URL.
  stringifySearch: (o) => {
    const q = new URLSearchParams(
      Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
    ).toString();
    return q ? `?${q}` : '';
  },
  defaultNotFoundComponent: NotFoundPage,
});
