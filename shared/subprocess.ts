import { spawn } from 'node:child_process';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildHandle {
  done: Promise<ExitStatus>;
  /** SIGINT: the program may stop cleanly. */
  interrupt(): void;
  /** SIGKILL: immediate. */
  kill(): void;
  /** Writes to the program's standard input (only when spawned with `input`). */
  send(text: string): void;
  /**
   * Whether the program and its pipes keep the service's process alive (they do from the start).
   * A program on standby should not: the service may exit without it, and its input then ends.
   */
  hold(on: boolean): void;
}

/** Exit code reported when the program could not be started at all (as a shell reports it). */
export const NOT_STARTED = 127;

/**
 * Spawns a program; stdout and stderr go to their callbacks. It has no standard input unless
 * `input` (then `send` writes to it), and with `onFd3` a fourth pipe whose output goes there. A
 * program that cannot be started ends with NOT_STARTED and `onStartError` says why. With `group`,
 * the program runs in its own process group and signals reach everything it started too.
 */
export function spawnChild(
  bin: string,
  args: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    group?: boolean;
    onStdout?: (chunk: Buffer) => void;
    onStderr?: (chunk: Buffer) => void;
    onFd3?: (chunk: Buffer) => void;
    input?: boolean;
    onStartError?: (err: Error) => void;
  },
): ChildHandle {
  const stdio = [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(opts.onFd3 ? ['pipe'] : [])] as ('pipe' | 'ignore')[];
  const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio, detached: opts.group === true });
  child.stdout!.on('data', (c: Buffer) => opts.onStdout?.(c));
  child.stderr!.on('data', (c: Buffer) => opts.onStderr?.(c));
  if (opts.onFd3) child.stdio[3]!.on('data', (c: Buffer | string) => opts.onFd3?.(Buffer.from(c)));
  // Writing to a program that has exited is not an error worth more than ignoring.
  child.stdin?.on('error', () => undefined);
  const done = new Promise<ExitStatus>((resolveDone) => {
    child.on('error', (err) => {
      opts.onStartError?.(err);
      resolveDone({ code: NOT_STARTED, signal: null });
    });
    child.on('close', (code, signal) => resolveDone({ code, signal }));
  });
  const signal = (sig: NodeJS.Signals) => {
    if (!opts.group || child.pid === undefined) return void child.kill(sig);
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group is already gone
    }
  };
  const handles = [child, ...child.stdio].filter(Boolean) as unknown as { ref(): void; unref(): void }[];
  return {
    done,
    interrupt: () => signal('SIGINT'),
    kill: () => signal('SIGKILL'),
    send: (text) => void child.stdin?.write(text),
    hold: (on) => handles.forEach((h) => (on ? h.ref() : h.unref())),
  };
}

export interface BoundedRun extends ExitStatus {
  stdout: string;
  stderr: string;
  /** Why the program was stopped or never ran; null when it ran to its own end. */
  stopped: 'timeout' | 'output-limit' | 'aborted' | 'not-started' | null;
  /** The reason the program could not be started, when it could not. */
  startError: string | null;
}

/**
 * Runs a program to completion, capturing its output, and kills it when it runs past `timeoutMs`,
 * writes more than `maxOutputBytes` (stdout and stderr together) or `signal` aborts.
 */
export async function runBounded(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
): Promise<BoundedRun> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let bytes = 0;
  let stopped: BoundedRun['stopped'] = null;
  let startError: string | null = null;
  if (opts.signal?.aborted) return { code: null, signal: null, stdout: '', stderr: '', stopped: 'aborted', startError };
  const stop = (why: NonNullable<BoundedRun['stopped']>) => {
    stopped ??= why;
    child.kill();
  };
  const collect = (into: Buffer[]) => (chunk: Buffer) => {
    if (stopped) return;
    bytes += chunk.length;
    if (bytes > opts.maxOutputBytes) return stop('output-limit');
    into.push(chunk);
  };
  // Its own process group: a stopped program takes anything it started with it, and the pipes close.
  const child = spawnChild(bin, args, {
    cwd: opts.cwd,
    env: opts.env,
    group: true,
    onStdout: collect(out),
    onStderr: collect(err),
    onStartError: (e) => {
      startError = e.message;
      stopped ??= 'not-started';
    },
  });
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  const onAbort = () => stop('aborted');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const status = await child.done;
    return { ...status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stopped, startError };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
