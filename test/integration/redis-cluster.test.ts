import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import { api } from '../helpers/api.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { bullPrefix } from '../../shared/platform/queues.js';
import { masters } from '../../shared/platform/redis.js';

/**
 * Runs in the Redis Cluster job (REDIS_CLUSTER_TEST=1, see README): the service's connections are
 * cluster connections, and every key it and its libraries wrote lives in the one slot of the queue
 * prefix's hash tag, so no command of the service spans slots.
 */
describe('Redis Cluster: every key of the service in one slot', function () {
  before(function () {
    if (!harness().cluster) this.skip();
  });

  it('keeps queue, scheduler and rate limit keys under the hash tag, on one master', async () => {
    const h = harness();
    expect(h.rt.redis).to.be.instanceOf(Cluster);
    // Work that writes queue keys (a run's job) and rate limit keys (an authenticated request).
    const org = await createOrg();
    const ws = await createWorkspace(org);
    expect((await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token })).status).to.equal(200);
    expect(
      (await api('POST', `/workspaces/${ws.id}/actions/lock`, { token: org.owner.token, body: {} })).status,
    ).to.equal(200);

    const tag = h.config.queuePrefix;
    const byNode: string[][] = [];
    for (const node of masters(h.rt.redis)) {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'COUNT', 1000);
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      byNode.push(keys);
    }
    const ours = byNode.map((keys) => keys.filter((k) => k.includes(tag)));
    const all = ours.flat();
    expect(
      all.some((k) => k.includes(':rate-limit:api:')),
      all.join(' '),
    ).to.equal(true);
    expect(all.some((k) => k.startsWith(`${bullPrefix(tag)}:`))).to.equal(true);
    // Every key names the hash tag, and all are on one master, in one slot.
    for (const key of all) expect(key.startsWith(`${bullPrefix(tag)}:`), key).to.equal(true);
    expect(ours.filter((keys) => keys.length > 0)).to.have.length(1);
    const node = masters(h.rt.redis)[ours.findIndex((keys) => keys.length > 0)];
    const slots = new Set(await Promise.all(all.slice(0, 50).map((k) => node.call('cluster', 'keyslot', k))));
    expect(slots.size).to.equal(1);
  });

  it('lets a process close its runtime the moment its cluster connection is ready, and exit cleanly', async () => {
    // A process stopped right after it started: its queues are still checking Redis when the
    // runtime disconnects. That check's failure must not end the process with an uncaught error.
    const module = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
    const script = [
      `const { loadConfig } = await import(${module('../../shared/platform/config.js')});`,
      `const { openRuntime, closeRuntime } = await import(${module('../../shared/runtime.js')});`,
      `const { createRunLifecycle } = await import(${module('../../shared/lifecycle-areas.js')});`,
      `const { createLogger } = await import(${module('../../shared/platform/logger.js')});`,
      'const config = loadConfig();',
      "const rt = openRuntime(config, createRunLifecycle(config), createLogger('error'));",
      "await new Promise((resolve) => rt.redis.once('ready', resolve));",
      'await closeRuntime(rt);',
      "setTimeout(() => process.stdout.write('closed cleanly'), 300);",
    ].join('\n');
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: harness().childEnv,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: err.code ?? -1,
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }),
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.equal('closed cleanly');
  });
});
