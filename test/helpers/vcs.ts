import { expect } from 'chai';
import nock from 'nock';
import { api, doc } from './api.js';
import { harness } from './harness.js';
import { createOrg, uniq, type TestUser } from './fixtures.js';
import { waitFor } from './processes.js';
import { terraformWorkers } from './terraform.js';
import { startGitServer, type GitServer } from './git-server.js';
import { startWorkers, type WorkerHandle } from '../../workers/bootstrap.js';

/** A webhook the service created at the mocked provider: the repository, its URL and its secret. */
export interface CreatedHook {
  identifier: string;
  url: string;
  secret: string;
}

/** A commit status the mocked provider received. */
export interface StatusCall {
  sha: string;
  state: string;
  url: string;
  description: string;
  context: string;
}

/** A run as the runs list shows it. */
export interface ListedRun {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { id: string } | null }>;
}

/** What a VCS suite has once its `before` ran. */
export interface VcsSuite {
  git: GitServer;
  org: { name: string; owner: TestUser };
  tokenId: string;
  hooks: CreatedHook[];
  statuses: StatusCall[];
  hookOf(identifier: string): CreatedHook;
  connectedWorkspace(
    identifier: string,
    attrs?: Record<string, unknown>,
  ): Promise<{ id: string; attributes: Record<string, unknown> }>;
  runsOf(wsId: string): Promise<ListedRun[]>;
  oneRunOf(wsId: string, what: string): Promise<ListedRun>;
}

/**
 * The set-up every provider's suite shares: Terraform workers as child processes, the vcs queue's
 * workers in this process (so the provider API they call is the one `mockProvider` mocks with
 * nock), a git server whose repositories need `token`, and an organization with a connection to
 * them. `mockProvider` records the hooks and statuses it receives into the lists it is given (null
 * for a git server, whose API the service does not call).
 */
export function vcsSuite(
  connection: { serviceProvider: string; apiUrl: string; token: string; secret?: string },
  mockProvider: ((hooks: CreatedHook[], statuses: StatusCall[]) => void) | null,
): VcsSuite {
  terraformWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification', 'test-run-execution'], {
    RECONCILE_INTERVAL_MS: '2000',
  });
  const hooks: CreatedHook[] = [];
  const statuses: StatusCall[] = [];
  let vcsWorkers: WorkerHandle | undefined;
  const suite = { hooks, statuses } as unknown as VcsSuite;

  before(async () => {
    suite.git = await startGitServer({ token: connection.token });
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
    mockProvider?.(hooks, statuses);
    vcsWorkers = await startWorkers(harness().rt, ['vcs']);
    suite.org = await createOrg();
    const created = await api('POST', `/organizations/${suite.org.name}/oauth-clients`, {
      token: suite.org.owner.token,
      body: doc('oauth-clients', {
        'service-provider': connection.serviceProvider,
        'http-url': suite.git.url,
        'api-url': connection.apiUrl,
        'oauth-token-string': connection.token,
        ...(connection.secret ? { secret: connection.secret } : {}),
      }),
    });
    expect(created.status, created.text).to.equal(201);
    suite.tokenId = created.body.data.relationships['oauth-tokens'].data[0].id;
  });

  after(async () => {
    await vcsWorkers?.stop(5000);
    nock.cleanAll();
    nock.enableNetConnect();
    await suite.git?.close();
  });

  suite.hookOf = (identifier) => hooks.find((h) => h.identifier === identifier)!;

  suite.connectedWorkspace = async (identifier, attrs = {}) => {
    const res = await api('POST', `/organizations/${suite.org.name}/workspaces`, {
      token: suite.org.owner.token,
      body: doc('workspaces', {
        name: uniq('ws'),
        'auto-apply': true,
        'vcs-repo': { identifier, 'oauth-token-id': suite.tokenId, branch: 'main' },
        ...attrs,
      }),
    });
    expect(res.status, res.text).to.equal(201);
    // A provider the service calls gets the repository's webhook; a git server's is set up by hand.
    if (mockProvider)
      await waitFor(() => hooks.some((h) => h.identifier === identifier), `the webhook of ${identifier}`);
    return res.body.data;
  };

  suite.runsOf = async (wsId) => {
    const res = await api('GET', `/workspaces/${wsId}/runs`, { token: suite.org.owner.token });
    return res.body.data as ListedRun[];
  };

  // A timeout says where the workspace's versions stand.
  suite.oneRunOf = async (wsId, what) => {
    let versions = '';
    await waitFor(
      async () => {
        const cvs = await api('GET', `/workspaces/${wsId}/configuration-versions`, { token: suite.org.owner.token });
        versions = JSON.stringify(
          (cvs.body.data as { attributes: Record<string, unknown> }[]).map((c) => [
            c.attributes.status,
            c.attributes['error-message'],
          ]),
        );
        return (await suite.runsOf(wsId)).length === 1;
      },
      () => `${what} (versions: ${versions})`,
      30_000,
    );
    return (await suite.runsOf(wsId))[0];
  };

  return suite;
}
