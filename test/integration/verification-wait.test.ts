import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';

/** The SQL this process's API sends that names the verifications table, counted while `work` runs. */
async function verificationQueriesDuring(work: () => Promise<void>): Promise<number> {
  const { db } = harness().rt;
  let count = 0;
  const onQuery = (q: { sql: string }) => void (/verifications/.test(q.sql) && count++);
  db.on('query', onQuery);
  try {
    await work();
  } finally {
    db.removeListener('query', onQuery);
  }
  return count;
}

describe('a request that verifies a destination waits for the worker without polling', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  let server: Server;
  let url: string;

  before(async () => {
    // The destination takes a second and a half to answer, as a slow integration would.
    server = createServer((_req, res) => void setTimeout(() => res.writeHead(200).end(), 1500));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    worker = spawnWorkers(['verification']);
    await workersReady(worker);
  });
  after(async () => {
    await worker?.stop('SIGKILL');
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('creates a run task once the slow endpoint answers, reading the verification a handful of times, not every few milliseconds', async () => {
    const org = await createOrg();
    let status = 0;
    const queries = await verificationQueriesDuring(async () => {
      const res = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: doc('tasks', { name: uniq('task'), url, category: 'task' }),
      });
      status = res.status;
    });
    expect(status).to.equal(201);
    // The insert, a read before waiting and a read once woken (polling every 50 ms would make about 30).
    expect(queries).to.be.within(2, 4);
  });

  it('still answers in time when the destination never does, settling the verification as failed', async () => {
    const org = await createOrg();
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const res = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: doc('tasks', {
          name: uniq('task'),
          url: `http://127.0.0.1:${(silent.address() as { port: number }).port}/`,
          category: 'task',
        }),
      });
      expect(res.status, res.text).to.equal(422);
      const row = await harness().rt.db('verifications').orderBy('created_at', 'desc').first();
      expect(row.status).to.equal('failed');
      expect(await harness().rt.db('tasks').where({ organization_name: org.name }).first()).to.equal(undefined);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
