import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { harness } from './harness.js';

const WORKERS_MAIN = fileURLToPath(new URL('../../bin/workers.js', import.meta.url));
const WEB_MAIN = fileURLToPath(new URL('../../bin/web.js', import.meta.url));

export interface WorkerProcess {
  proc: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `bin/workers.js` as a real child process sharing this run's database and queue prefix;
 * through `wrapper` when given (a command that ends by running its arguments, e.g. in namespaces of its own).
 */
export function spawnWorkers(queues: string[], env: NodeJS.ProcessEnv = {}, wrapper: string[] = []): WorkerProcess {
  return spawnService(WORKERS_MAIN, queues, env, wrapper);
}

/** Starts `bin/web.js` (the API alone) as a real child process on this run's database and queue prefix; `env` names its PORT. */
export function spawnWeb(env: NodeJS.ProcessEnv): WorkerProcess {
  return spawnService(WEB_MAIN, [], env);
}

function spawnService(main: string, args: string[], env: NodeJS.ProcessEnv, wrapper: string[] = []): WorkerProcess {
  const [bin, ...rest] = [...wrapper, process.execPath, main, ...args];
  const proc = spawn(bin, rest, {
    env: { ...harness().childEnv, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // TEST_WORKER_OUTPUT=1 shows the workers' logs as they come (for debugging a test).
  const echo = process.env.TEST_WORKER_OUTPUT === '1';
  proc.stdout!.on('data', (d: Buffer) => ((out += d.toString()), echo && process.stderr.write(d)));
  proc.stderr!.on('data', (d: Buffer) => ((out += d.toString()), echo && process.stderr.write(d)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * Sends `signal` to a service process the moment its output includes `text` (in the handler of
 * the output chunk that completes it, not at a later poll); resolves once sent.
 */
export function signalOnOutput(w: WorkerProcess, text: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!w.output().includes(text)) return;
      w.proc.stdout!.off('data', check);
      w.proc.stderr!.off('data', check);
      w.proc.kill(signal);
      resolve();
    };
    // Registered after spawnService's own listeners, so the output already holds the chunk.
    w.proc.stdout!.on('data', check);
    w.proc.stderr!.on('data', check);
  });
}

/** Polls until `check` returns a truthy value or the time runs out; `what` names it in the error (read then, when a function). */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  what: string | (() => string),
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until a worker process logs that it started. */
export const workersReady = (w: WorkerProcess, timeoutMs?: number) =>
  waitFor(() => w.output().includes('"workers started"'), 'workers to start', timeoutMs);

/** Waits until a web process logs that it listens. */
export const webReady = (w: WorkerProcess, timeoutMs = 30_000) =>
  waitFor(() => w.output().includes('"web listening"'), 'the web process to listen', timeoutMs);

/** The JSON log lines of a process's output. */
export const logLines = (output: string): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
