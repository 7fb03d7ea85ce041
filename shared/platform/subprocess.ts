import { spawn } from 'node:child_process';
import { Socket } from 'node:net';

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
  /** The program's process id (undefined when it could not be started). */
  pid(): number | undefined;
  /** Why the program was stopped for breaking a limit of its sandbox (e.g. its directory's size), else null. */
  violation(): string | null;
  /**
   * Whether the program and its pipes keep the service's process alive (they do from the start).
   * A program on standby should not: the service may exit without it, and its input then ends.
   */
  hold(on: boolean): void;
}

/** Whether a process of this id is running (as any user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user.
    return (err as { code?: string }).code === 'EPERM';
  }
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
    /**
     * A fifth descriptor (fd 4), both ways: what the program writes there goes to `onControl`,
     * with a function that writes back to it.
     */
    onControl?: (chunk: Buffer, reply: (text: string) => void) => void;
    /**
     * A sixth descriptor (fd 5), which the program reads one byte from to go on (bubblewrap's
     * --block-fd): called at once with what writes that byte.
     */
    onGate?: (open: () => void) => void;
    input?: boolean;
    onStartError?: (err: Error) => void;
    /** The user and group the program runs as (a process running as root may choose). */
    user?: { uid: number; gid: number };
  },
): ChildHandle {
  const stdio = [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] as ('pipe' | 'ignore')[];
  if (opts.onFd3 || opts.onControl || opts.onGate) stdio.push(opts.onFd3 ? 'pipe' : 'ignore');
  if (opts.onControl || opts.onGate) stdio.push(opts.onControl ? 'pipe' : 'ignore');
  if (opts.onGate) stdio.push('pipe');
  const user = opts.user ? { uid: opts.user.uid, gid: opts.user.gid } : {};
  const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio, detached: opts.group === true, ...user });
  child.stdout!.on('data', (c: Buffer) => opts.onStdout?.(c));
  child.stderr!.on('data', (c: Buffer) => opts.onStderr?.(c));
  if (opts.onFd3) child.stdio[3]!.on('data', (c: Buffer | string) => opts.onFd3?.(Buffer.from(c)));
  if (opts.onControl) {
    // A piped descriptor beyond stderr is a socket: it reads and writes.
    const control = child.stdio[4];
    if (!(control instanceof Socket)) throw new Error('the control descriptor is not a socket');
    control.on('error', () => undefined);
    const reply = (text: string) => void control.write(text);
    control.on('data', (c: Buffer | string) => opts.onControl?.(Buffer.from(c), reply));
  }
  if (opts.onGate) {
    const gate = (child.stdio as unknown as Socket[])[5];
    gate.on('error', () => undefined);
    opts.onGate(() => void gate.end('1'));
  }
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
    pid: () => child.pid,
    violation: () => null,
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
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    maxOutputBytes: number;
    signal?: AbortSignal;
    /** Starts the program some other way (e.g. in a sandbox), given where its output goes; it must run in a process group of its own. */
    start?: (sinks: {
      onStdout(c: Buffer): void;
      onStderr(c: Buffer): void;
      onStartError(e: Error): void;
    }) => ChildHandle;
  },
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
  const sinks = {
    onStdout: collect(out),
    onStderr: collect(err),
    onStartError: (e: Error) => {
      startError = e.message;
      stopped ??= 'not-started';
    },
  };
  // Its own process group: a stopped program takes anything it started with it, and the pipes close.
  const child = opts.start
    ? opts.start(sinks)
    : spawnChild(bin, args, { cwd: opts.cwd, env: opts.env, group: true, ...sinks });
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  const onAbort = () => stop('aborted');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const status = await child.done;
    return {
      ...status,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
      stopped,
      startError,
    };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
