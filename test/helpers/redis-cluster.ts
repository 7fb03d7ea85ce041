import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real Redis Cluster of three masters (no replicas) from the machine's redis-server, on local ports, in a directory of its own. */
export interface OwnRedisCluster {
  /** host:port of each master, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  stop(): Promise<void>;
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** Three consecutive ports from `first` on, each free along with its cluster bus port (port + 10000). */
async function freePorts(first: number): Promise<number[]> {
  for (let base = first; base < first + 300; base += 3) {
    const ports = [base, base + 1, base + 2];
    const free = await Promise.all(ports.flatMap((p) => [bindable(p), bindable(p + 10000)]));
    if (free.every(Boolean)) return ports;
  }
  throw new Error('no free ports for a Redis Cluster');
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts three redis-server processes in cluster mode (no persistence), joins them with
 * `redis-cli --cluster create` and waits until every node says the cluster is ok. `stop` kills them
 * and removes their directory.
 */
export async function startRedisCluster(
  firstPort = Number(process.env.REDIS_CLUSTER_TEST_PORT ?? 7101),
): Promise<OwnRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-redis-cluster-'));
  const ports = await freePorts(firstPort);
  const procs: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '5000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      procs.map(async (p) => {
        if (p.exitCode !== null || p.signalCode !== null) return;
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGKILL');
        await exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await until(async () => (await cli(port, 'ping')).trim() === 'PONG', `node ${port}`);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports)
      await until(
        async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'),
        `node ${port} to see the cluster ok`,
      );
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`), stop };
}
