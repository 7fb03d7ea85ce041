import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { lchown, readdir, rm, stat } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { randomInt } from 'node:crypto';
import { spawnChild, type ChildHandle } from '../subprocess.js';
import type { Config } from '../config.js';
import { egressRules, USER_NET, type NetworkMode } from './network.js';
import {
  cgroupParents,
  readHostCgroups,
  removeAbandonedCgroups,
  RunCgroups,
  selectCgroups,
  type CgroupMode,
  type RunCgroup,
} from './cgroups.js';
import { HeldTmpfs, sandboxTmpfs } from './tmpfs.js';
import { deploymentTag } from '../terraform/work-root.js';

export type { NetworkMode } from './network.js';

/** `bwrap`: every program runs in a bubblewrap sandbox; `none`: directly, as the worker (unsafe, for development only). */
export type SandboxMode = 'bwrap' | 'none';

export interface SandboxLimits {
  /** Memory of the sandbox's processes together, in bytes (its cgroup); without a cgroup, the address space of each (RLIMIT_AS). */
  memoryBytes: number;
  /** Processes and threads of the sandbox (its cgroup); without a cgroup, of the sandbox's user (RLIMIT_NPROC). */
  processes: number;
  /**
   * Everything in the writable directory together, in bytes; also the largest file
   * (RLIMIT_FSIZE), and the sandbox's /tmp and /dev/shm together (see sandboxTmpfs).
   */
  diskBytes: number;
}

export interface SandboxSettings {
  mode: SandboxMode;
  network: NetworkMode;
  /** Destinations a sandboxed program may reach in `egress` mode although they are in a blocked range. */
  allowedCidrs: readonly string[];
  /** More host paths made visible read-only (e.g. a provider mirror). */
  readOnlyPaths: readonly string[];
  /** A worker running as root runs each sandbox as a user of its own, picked from this base on. */
  uidBase: number;
  limits: SandboxLimits;
  /**
   * `idle`: what runs in a sandbox is scheduled SCHED_IDLE, so it gets a core only when no process
   * of normal scheduling (the API, the dispatchers, PostgreSQL, the worker itself) wants one, and
   * such a process waking takes the core from it at once; `normal`: the worker's own priority.
   */
  cpuScheduling: 'idle' | 'normal';
  /**
   * Whether each sandbox gets a cgroup of its own bounding its processes together (RUN_CGROUPS),
   * their CPU weight there (RUN_CPU_WEIGHT), and the tag that names this deployment's cgroups.
   */
  cgroups: { mode: CgroupMode; cpuWeight: number; deployment: string };
}

/** The user a sandbox runs as, on the host. */
export interface SandboxUser {
  uid: number;
  gid: number;
}

/** One program to run in a sandbox. */
export interface SandboxProgram {
  bin: string;
  args: string[];
  /** The program's directory: the only writable place besides a private /tmp. */
  dir: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The user it runs as (see Sandbox.user). */
  user: SandboxUser;
  /** Overrides the settings' network mode (policy runtimes: `isolated`). */
  network?: NetworkMode;
  group?: boolean;
  input?: boolean;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  onFd3?: (chunk: Buffer) => void;
  onStartError?: (err: Error) => void;
}

/** The PATH sandboxed programs get. */
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

const SPAN = 60_000;
const PRLIMIT = resolveBin('prlimit', `${SANDBOX_PATH}:/usr/sbin`);
const ENV = resolveBin('env', SANDBOX_PATH);
const CHRT = resolveBin('chrt', SANDBOX_PATH);
const DISK_CHECK_MS = 2_000;
/** Between two looks at what the kernel counts for a sandbox (its cgroup's events, its tmpfs mounts' space). */
const LIMITS_CHECK_MS = 500;
/** The longest a sandbox's setup may take before the worker gives up on it. */
const START_TIMEOUT_MS = 15_000;
/** Directories of up to about this many entries are handed to the sandbox's user synchronously (see own). */
const SYNC_OWN_MAX_ENTRIES = 200;

/**
 * An interrupt (a cancel) goes to the sandbox's whole process group, bubblewrap included, which
 * would die of it and take the sandbox with it at once. So bubblewrap starts with SIGINT ignored
 * (a disposition that survives exec), and what runs inside gets the default back (`env
 * --default-signal`): Terraform and the phase's shell see the interrupt, the launcher does not.
 */
const IGNORING_INT = 'trap \'\' INT; exec "$@"';

/**
 * The shell between `unshare` and bubblewrap in `egress` mode, running as root of a fresh user
 * namespace that owns a fresh network namespace: it says so on fd 4, waits until the worker has
 * attached the user-mode network to that namespace, loads the egress rules and becomes
 * bubblewrap (which reports on fd 4 too, see bwrapArgs), which drops to an unprivileged user with
 * no capabilities: the rules stay out of the sandboxed program's reach.
 */
const NET_STAGE = [
  "trap '' INT",
  'rules=$1',
  'shift',
  'echo ns >&4',
  'read -r up <&4 || exit 125',
  '[ "$up" = up ] || exit 125',
  `printf '%s' "$rules" | nft -f - || { echo 'the sandbox could not set up its network rules' >&2; exit 125; }`,
  'exec "$@"',
].join('\n');

/** What a sandboxed program sees of /etc: name resolution through the user-mode network, nothing of the host's. */
function makeEtc(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rls-sandbox-etc-'));
  writeFileSync(join(dir, 'resolv.conf'), `nameserver ${USER_NET.dns}\n`);
  writeFileSync(join(dir, 'hosts'), '127.0.0.1 localhost\n::1 localhost\n');
  writeFileSync(join(dir, 'nsswitch.conf'), 'hosts: files dns\n');
  chmodSync(dir, 0o755);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let identities = 0;

/**
 * The /etc/passwd and /etc/group of one sandbox, written into `etc`: root, and the sandbox's user
 * as `run` (its ids differ per sandbox with a root worker), so that programs that look their user
 * up find it: ssh, which git runs for `git::ssh://` module sources, refuses to start otherwise.
 * Returns bubblewrap's mounts of both and what removes them once the sandbox has ended.
 */
function identityMounts(etc: string, user: SandboxUser): { args: string[]; remove(): void } {
  const n = ++identities;
  const passwd = join(etc, `passwd-${n}`);
  const group = join(etc, `group-${n}`);
  writeFileSync(passwd, `root:x:0:0::/:/usr/sbin/nologin\nrun:x:${user.uid}:${user.gid}::/tmp:/bin/sh\n`, {
    mode: 0o644,
  });
  writeFileSync(group, `root:x:0:\nrun:x:${user.gid}:\n`, { mode: 0o644 });
  return {
    args: ['--ro-bind', passwd, '/etc/passwd', '--ro-bind', group, '/etc/group'],
    remove: () => {
      rmSync(passwd, { force: true });
      rmSync(group, { force: true });
    },
  };
}

/** The host's system directories, bound read-only (or re-created as the symbolic links they are). */
function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let st;
    try {
      st = lstatSync(top);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else if (st.isDirectory()) args.push('--ro-bind', top, top);
  }
  // Certificates for providers' HTTPS, and the Debian alternatives some /usr/bin entries point at.
  for (const etc of ['/etc/ssl', '/etc/ca-certificates', '/etc/pki', '/etc/alternatives', '/etc/localtime'])
    args.push('--ro-bind-try', etc, etc);
  return args;
}

/** Host addresses of this machine's interfaces other than loopback (the sandbox must not reach the host through them). */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal)
    .map((a) => a.address);
}

/** Whether a path is in /usr, which every sandbox sees already. */
const underUsr = (path: string) => path === '/usr' || path.startsWith('/usr/');

/** Resolves a program name on PATH to its path (a sandbox needs its directory visible); a name not found stays as it is. */
export function resolveBin(bin: string, path = process.env.PATH ?? ''): string {
  if (isAbsolute(bin)) return bin;
  if (bin.includes('/')) return join(process.cwd(), bin);
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, bin);
    try {
      lstatSync(candidate);
      return candidate;
    } catch {
      // not here
    }
  }
  return bin;
}

/** The size of everything under `dir`, in bytes (stops counting past `limit`). */
async function sizeOf(dir: string, limit: number): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    total += (await stat(join(e.parentPath, e.name)).catch(() => ({ size: 0 }))).size;
    if (total > limit) break;
  }
  return total;
}

export interface Sandbox {
  readonly settings: SandboxSettings;
  /** A user for a new sandbox: one of its own when the worker runs as root, else the worker's. */
  user(): SandboxUser;
  /**
   * Hands `dir` and everything in it to the sandbox's user (needed when the worker runs as root).
   * `entries`: about how many it holds, when known (a small directory is handed over at once).
   */
  own(dir: string, user: SandboxUser, entries?: number): Promise<void>;
  /** Hands one file written after `own` to the sandbox's user. */
  ownFile(path: string, user: SandboxUser): void;
  /** Starts `program` in a sandbox (or directly in mode `none`). */
  spawn(program: SandboxProgram): ChildHandle;
  /**
   * Whether sandboxes can be made here: null when they can, else why not and what to install.
   * After a failed check, every spawn is refused with that reason on its stderr (exit 125).
   */
  check(): Promise<string | null>;
  /**
   * Why sandboxes get no cgroup of their own although RUN_CGROUPS=auto asks for one (what is then
   * bounded per process only); null when they get one, or cgroups are off.
   */
  unbounded(): string | null;
  /** Removes the cgroups of this deployment's processes on this host that died, and retries this process's own that could not be removed. */
  removeLeftovers(): Promise<{ removed: number; failed: { path: string; error: string }[] }>;
}

/**
 * The largest file a sandboxed program may write (RLIMIT_FSIZE, from RUN_DISK_LIMIT_MB): a write
 * past it fails, so a file of this size may hold only the start of what was written. Without a
 * sandbox nothing limits it.
 */
export const largestFileOf = (settings: Pick<SandboxSettings, 'mode' | 'limits'>): number =>
  settings.mode === 'none' ? Infinity : settings.limits.diskBytes;

/** The sandbox settings of a configuration (see the RUN_* variables in docs/configuration.md). */
export function sandboxSettings(config: Config): SandboxSettings {
  return {
    mode: config.runSandbox,
    network: config.runNetwork,
    allowedCidrs: config.runNetworkAllowedCidrs,
    // The programs' own directories too (Terraform runs under the phase's shell, not as the sandbox's program).
    readOnlyPaths: [
      ...config.runSandboxReadonlyPaths,
      ...(config.terraformCliConfig ? [config.terraformCliConfig] : []),
      ...[config.terraformBin, config.opaPath, config.sentinelPath]
        .map((bin) => resolveBin(bin))
        .filter((bin) => isAbsolute(bin))
        .map((bin) => dirname(bin))
        .filter((dir) => !underUsr(dir)),
    ],
    uidBase: config.runSandboxUidBase,
    cpuScheduling: config.runCpuScheduling,
    cgroups: { mode: config.runCgroups, cpuWeight: config.runCpuWeight, deployment: deploymentTag(config) },
    limits: {
      memoryBytes: config.runMemoryLimitMb * 1048576,
      processes: config.runProcessLimit,
      diskBytes: config.runDiskLimitMb * 1048576,
    },
  };
}

/** A program that was refused: it says why on stderr and ends at once with code 125. */
function refused(reason: string, p: SandboxProgram): ChildHandle {
  const done = new Promise<{ code: number; signal: null }>((resolve) =>
    setImmediate(() => {
      p.onStderr?.(Buffer.from(`Error: ${reason}\n`));
      resolve({ code: 125, signal: null });
    }),
  );
  const nothing = () => undefined;
  return {
    done,
    interrupt: nothing,
    kill: nothing,
    send: nothing,
    hold: nothing,
    pid: () => undefined,
    violation: () => null,
  };
}

/** What a sandbox's cgroup is to bound, from the settings. */
const cgroupLimits = (settings: SandboxSettings) => ({
  memoryBytes: settings.limits.memoryBytes,
  processes: settings.limits.processes,
  cpuWeight: settings.cgroups.cpuWeight,
  cpuIdle: settings.cpuScheduling === 'idle',
});

/** Where this worker's sandboxes get their cgroups; or why they get none (`missing`: RUN_CGROUPS asks for them, the host does not allow them). */
interface Bounds {
  cgroups: RunCgroups | null;
  missing: string | null;
}

/** The place for sandboxes' cgroups on this host, readied for use (see RunCgroups.prepare). */
function findBounds(settings: SandboxSettings): Bounds {
  if (settings.mode === 'none' || settings.cgroups.mode === 'off') return { cgroups: null, missing: null };
  const choice = selectCgroups(readHostCgroups());
  if (!choice.version) return { cgroups: null, missing: choice.reason };
  const cgroups = new RunCgroups(choice, settings.cgroups.deployment, cgroupLimits(settings));
  try {
    cgroups.prepare();
  } catch (err) {
    return {
      cgroups: null,
      missing: `cgroup v2: the service's cgroup ${choice.version === 2 ? choice.parent : ''} could not be readied (${(err as Error).message})`,
    };
  }
  return { cgroups, missing: null };
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

/** The sandbox every program that executes user configuration runs in (see docs/run-isolation.md). */
export function createSandbox(settings: SandboxSettings): Sandbox {
  const root = process.getuid?.() === 0;
  let refusal: string | null = null;
  // Only absolute paths: a relative one would be taken from bubblewrap's directory, the host's root.
  const readOnly = new Set(settings.readOnlyPaths.filter((path) => isAbsolute(path) && path !== '/'));
  let fixed: { mounts: string[]; etc: string } | undefined;
  const l = settings.limits;
  const tmpfs = sandboxTmpfs(l.diskBytes);
  let found: Bounds | undefined;
  /** Found on first use (the start check, or the first sandbox): it reads the host's cgroups, and with cgroup v2 moves this process. */
  const bounds = () => (found ??= findBounds(settings));
  const cgroupRefusal = () => {
    const missing = settings.cgroups.mode === 'required' ? bounds().missing : null;
    return missing && `the run sandbox cannot bound a run's processes together (RUN_CGROUPS=required): ${missing}`;
  };
  /**
   * What starts each sandbox's program inside bubblewrap: its scheduling, its limits, the
   * interrupt restored (see IGNORING_INT). A cgroup bounds memory and processes for the sandbox
   * as a whole; only without one are they bounded per process (address space) and per user.
   */
  const launcher = (cgroup: boolean) => [
    ...(settings.cpuScheduling === 'idle' ? [CHRT, '--idle', '0'] : []),
    PRLIMIT,
    ...(cgroup ? [] : [`--as=${l.memoryBytes}`, `--nproc=${l.processes}`]),
    `--fsize=${l.diskBytes}`,
    '--core=0',
    '--nice=0',
    '--',
    ENV,
    '--default-signal=INT',
  ];

  /**
   * What every sandbox sees, made once (on the first sandbox): the system, its own /etc (the
   * directory holding it, where each sandbox's identity files go too), /proc, /dev, /tmp and
   * /dev/shm (tmpfs mounts of the sizes sandboxTmpfs gives), the read-only paths.
   */
  function fixedMounts(): { mounts: string[]; etc: string } {
    if (fixed) return fixed;
    const etc = makeEtc();
    const mounts = [...systemMounts()];
    for (const file of ['resolv.conf', 'hosts', 'nsswitch.conf'])
      mounts.push('--ro-bind', join(etc, file), `/etc/${file}`);
    mounts.push('--proc', '/proc', '--dev', '/dev');
    for (const m of tmpfs) mounts.push('--size', String(m.bytes), '--tmpfs', m.path);
    for (const path of readOnly) mounts.push('--ro-bind-try', path, path);
    return (fixed = { mounts, etc });
  }

  /**
   * Bubblewrap's arguments for `p`. It reports the sandbox's first process on fd 4 and holds it,
   * set up but before the program starts, until the worker writes a byte to fd 5 (see admit).
   * The root and /dev, tmpfs mounts of bubblewrap's own, are made read-only once everything is
   * mounted on them: the run's directory, /tmp and /dev/shm are the only places it can write.
   */
  function bwrapArgs(p: SandboxProgram, network: NetworkMode, identity: string[], cgroup: boolean): string[] {
    const args = [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      ...(network === 'isolated' ? ['--unshare-net'] : []),
      '--disable-userns',
      '--die-with-parent',
      '--hostname',
      'run',
      '--info-fd',
      '4',
      '--block-fd',
      '5',
      '--uid',
      String(p.user.uid),
      '--gid',
      String(p.user.gid),
      ...fixedMounts().mounts,
      ...identity,
    ];
    const bin = resolveBin(p.bin);
    if (isAbsolute(bin) && !underUsr(dirname(bin)) && !readOnly.has(dirname(bin)))
      args.push('--ro-bind-try', dirname(bin), dirname(bin));
    args.push('--bind', p.dir, p.dir, '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', p.cwd, '--clearenv');
    for (const [k, v] of Object.entries(p.env)) if (v !== undefined) args.push('--setenv', k, v);
    args.push('--', ...launcher(cgroup), bin, ...p.args);
    return args;
  }

  /** Calls `onViolation` (which stops the sandbox) when the program's directory grows past the disk limit. */
  function watchDisk(p: SandboxProgram, onViolation: (why: string) => void): () => void {
    const limit = settings.limits.diskBytes;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void sizeOf(p.dir, limit)
        .then((size) => {
          if (size > limit)
            onViolation(`the working directory grew past ${Math.round(limit / 1048576)} MiB (RUN_DISK_LIMIT_MB)`);
        })
        .finally(() => (busy = false));
    }, DISK_CHECK_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Starts `p` in a new sandbox, in a cgroup of its own when there are cgroups. The cgroup is made
   * first; the stage (the shell, or `unshare`, that becomes bubblewrap) is written into it right
   * after it is spawned, and bubblewrap's first process once bubblewrap reports it, held before the
   * program starts (see admit): whatever the run starts is forked inside its cgroup, with no
   * wrapper program and no cgroup file the sandbox's user could write.
   */
  function spawnSandboxed(p: SandboxProgram): ChildHandle {
    const noCgroup = cgroupRefusal();
    if (noCgroup) return refused(noCgroup, p);
    let group: RunCgroup | undefined;
    try {
      group = bounds().cgroups?.create();
    } catch (err) {
      return refused(`the sandbox's cgroup could not be made: ${(err as Error).message}`, p);
    }
    const network = p.network ?? settings.network;
    const identity = identityMounts(fixedMounts().etc, p.user);
    const bwrap = bwrapArgs(p, network, identity.args, group !== undefined);
    const held = new HeldTmpfs(tmpfs);
    let slirp: ReturnType<typeof spawn> | undefined;
    let open = () => undefined as void;
    let control = '';
    let admitted = false;
    let ended = false;
    const fail = (why: string) => {
      if (ended) return;
      p.onStderr?.(Buffer.from(`Error: the sandbox could not be started: ${why}\n`));
      handle.kill();
      group?.kill();
    };
    /**
     * Lets the program start: bubblewrap's first process `pid`, set up and waiting on fd 5, joins
     * the cgroup, and the sandbox's tmpfs mounts are held once its root is in place.
     */
    const admit = (pid: number) => {
      try {
        group?.attach(pid);
      } catch (err) {
        return fail(`it could not join its cgroup (${(err as Error).message})`);
      }
      const deadline = Date.now() + START_TIMEOUT_MS;
      const attempt = () => {
        if (ended) return;
        try {
          if (held.tryHold(pid)) return open();
        } catch (err) {
          return fail(`its tmpfs mounts could not be opened (${(err as Error).message})`);
        }
        if (Date.now() > deadline) return fail('its mounts were not in place in time');
        setTimeout(attempt, 2);
      };
      attempt();
    };
    const onControl = (chunk: Buffer, reply: (text: string) => void) => {
      control += chunk.toString('utf8');
      if (network === 'egress' && !slirp && control.startsWith('ns\n')) {
        control = control.slice(3);
        slirp = attachNetwork(handle, reply, p.onStderr);
      }
      // The first thing bubblewrap writes there: {"child-pid": <pid>, ... (complete once a non-digit follows).
      const child = /"child-pid":\s*(\d+)\D/.exec(control);
      if (child && !admitted) {
        admitted = true;
        admit(Number(child[1]));
      }
    };
    const common = {
      cwd: '/',
      // nft is in sbin, which an unprivileged user's PATH may lack.
      env: { PATH: `${process.env.PATH ?? SANDBOX_PATH}:/usr/sbin:/sbin` },
      group: p.group,
      input: p.input,
      onStdout: p.onStdout,
      onStderr: p.onStderr,
      onFd3: p.onFd3,
      onStartError: p.onStartError,
      onControl,
      onGate: (o: () => void) => (open = o),
      user: root ? p.user : undefined,
    };
    const handle: ChildHandle =
      network === 'isolated'
        ? spawnChild('/bin/sh', ['-c', IGNORING_INT, 'sh', 'bwrap', ...bwrap], common)
        : spawnChild(
            'unshare',
            [
              '--user',
              '--map-root-user',
              '--net',
              '--',
              '/bin/sh',
              '-c',
              NET_STAGE,
              'sh',
              egressRules(settings.allowedCidrs, hostAddresses()),
              'bwrap',
              ...bwrap,
            ],
            common,
          );
    const stage = handle.pid();
    if (group && stage !== undefined) {
      try {
        group.attach(stage);
      } catch (err) {
        fail(`it could not join its cgroup (${(err as Error).message})`);
      }
    }

    let violation: string | null = null;
    /** The limit the kernel stopped the sandbox at, if any: a process killed for memory, a fork refused, a full tmpfs. */
    const limitHit = (): string | null => {
      const hit = group?.hit();
      if (hit === 'memory')
        return `its processes together reached the memory limit of ${mb(l.memoryBytes)} MB (RUN_MEMORY_LIMIT_MB)`;
      if (hit === 'processes')
        return `it reached the process limit of ${l.processes} processes and threads (RUN_PROCESS_LIMIT)`;
      const full = held.full();
      return full && `it filled ${full} up to the disk limit of ${mb(l.diskBytes)} MB (RUN_DISK_LIMIT_MB)`;
    };
    // A sandbox at a limit is stopped: what runs in it would only fail on, or (a fork bomb) go on for ever.
    const stop = (why: string) => {
      if (violation) return;
      violation = why;
      handle.kill();
      group?.kill();
    };
    /** Looks at the limits now (the phase asks as soon as its command has ended), and says which one stopped the sandbox. */
    const check = () => {
      if (!violation && !ended) {
        const why = limitHit();
        if (why) stop(why);
      }
      return violation;
    };
    const limits = setInterval(check, LIMITS_CHECK_MS);
    limits.unref();
    const stopWatching = watchDisk(p, stop);
    // Ends once the sandbox is gone with its cgroup: what it hit is read before that, and its tmpfs mounts let go.
    const done = handle.done.then(async (exit) => {
      check();
      ended = true;
      clearInterval(limits);
      stopWatching();
      held.release();
      slirp?.kill('SIGKILL');
      identity.remove();
      await group?.remove();
      return exit;
    });
    return { ...handle, done, violation: check };
  }

  /**
   * Starts slirp4netns on the namespace of the stage shell (the spawned process itself), as the
   * worker, and tells the stage to go on once the network is up. When it cannot, the sandbox is
   * killed and says why.
   */
  function attachNetwork(handle: ChildHandle, reply: (text: string) => void, onStderr?: (chunk: Buffer) => void) {
    const pid = handle.pid();
    const args = ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', '--exit-fd=4'];
    if (!root) args.push(`--userns-path=/proc/${pid}/ns/user`);
    const slirp = spawn('slirp4netns', [...args, String(pid), 'tap0'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    const fail = (why: string) => {
      onStderr?.(Buffer.from(`the sandbox's network could not be set up: ${why}\n`));
      handle.kill();
    };
    let errors = '';
    slirp.stderr!.on('data', (c: Buffer) => (errors += c.toString('utf8')));
    slirp.on('error', (err) => fail(err.message));
    slirp.on('exit', (code) => {
      if (code !== 0 && code !== null) fail(errors.trim().split('\n').pop() ?? `slirp4netns exited with ${code}`);
    });
    slirp.stdio[3]!.once('data', () => reply('up\n'));
    slirp.stdio[3]!.on('error', () => undefined);
    slirp.stdio[4]!.on('error', () => undefined);
    return slirp;
  }

  const user = (): SandboxUser => {
    if (!root) return { uid: process.getuid?.() ?? 1000, gid: process.getgid?.() ?? 1000 };
    const id = settings.uidBase + randomInt(0, SPAN);
    return { uid: id, gid: id };
  };
  const own = async (dir: string, to: SandboxUser, entries = Infinity) => {
    if (!root || settings.mode === 'none') return;
    if (entries <= SYNC_OWN_MAX_ENTRIES) {
      // A working directory of a few files is listed and handed over in microseconds this way,
      // where each asynchronous call waits for the thread pool and then for a busy event loop (a
      // few milliseconds in all, on a phase's way to init).
      lchownSync(dir, to.uid, to.gid);
      for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
        lchownSync(join(e.parentPath, e.name), to.uid, to.gid);
      return;
    }
    await lchown(dir, to.uid, to.gid);
    const all = await readdir(dir, { recursive: true, withFileTypes: true });
    await Promise.all(all.map((e) => lchown(join(e.parentPath, e.name), to.uid, to.gid)));
  };

  return {
    settings,
    user,
    own,
    ownFile(path, user) {
      if (root && settings.mode !== 'none') chownSync(path, user.uid, user.gid);
    },
    spawn(p) {
      if (refusal) return refused(refusal, p);
      if (settings.mode === 'none') {
        return spawnChild(p.bin, p.args, {
          cwd: p.cwd,
          env: p.env,
          group: p.group,
          input: p.input,
          onStdout: p.onStdout,
          onStderr: p.onStderr,
          onFd3: p.onFd3,
          onStartError: p.onStartError,
        });
      }
      return spawnSandboxed(p);
    },
    async check() {
      refusal =
        settings.mode === 'none'
          ? null
          : (cgroupRefusal() ?? (await checkSandbox(settings.network, spawnSandboxed, user(), own)));
      return refusal;
    },
    unbounded() {
      return settings.mode !== 'none' && settings.cgroups.mode === 'auto' ? bounds().missing : null;
    },
    async removeLeftovers() {
      if (settings.mode === 'none') return { removed: 0, failed: [] };
      const { deployment } = settings.cgroups;
      const own = found?.cgroups;
      const result = await removeAbandonedCgroups(
        own?.parents() ?? cgroupParents(readHostCgroups(), deployment),
        deployment,
      );
      for (const path of (await own?.retryUnremoved()) ?? [])
        result.failed.push({ path, error: 'processes are still in it' });
      return result;
    },
  };
}

/**
 * Starts a trivial program as `user` in a sandbox of each network mode `network` needs (egress
 * needs isolated's tools too); null when it ran, else why not and what to install.
 */
async function checkSandbox(
  network: NetworkMode,
  spawnIt: (p: SandboxProgram) => ChildHandle,
  user: SandboxUser,
  own: (dir: string, user: SandboxUser) => Promise<void>,
): Promise<string | null> {
  const install =
    'install bubblewrap, slirp4netns and nftables (Debian: apt-get install -y bubblewrap slirp4netns nftables), or set RUN_SANDBOX=none to run Terraform unsandboxed (unsafe: development only)';
  const dir = mkdtempSync(join(tmpdir(), 'rls-sandbox-check-'));
  try {
    await own(dir, user);
    const modes: NetworkMode[] = network === 'egress' ? ['isolated', 'egress'] : ['isolated'];
    for (const mode of modes) {
      let output = '';
      const collect = (c: Buffer) => (output += c.toString('utf8'));
      const handle = spawnIt({
        bin: '/bin/sh',
        args: ['-c', 'echo sandboxed'],
        dir,
        cwd: dir,
        env: { PATH: SANDBOX_PATH },
        user,
        network: mode,
        onStdout: collect,
        onStderr: collect,
        onStartError: (e) => collect(Buffer.from(e.message)),
      });
      const timer = setTimeout(() => handle.kill(), 15_000);
      const exit = await handle.done;
      clearTimeout(timer);
      if (exit.code !== 0 || !output.includes('sandboxed')) {
        const why = output.trim().split('\n').slice(-2).join(' ') || `exit ${exit.code ?? exit.signal}`;
        return `the run sandbox does not work here (${mode} network: ${why}); ${install}`;
      }
    }
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
