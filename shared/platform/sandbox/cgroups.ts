import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../subprocess.js';

/** `auto`: each sandbox gets a cgroup when the host allows it; `required`: runs are refused when it does not; `off`: none. */
export type CgroupMode = 'auto' | 'required' | 'off';

type Controller = 'memory' | 'pids' | 'cpu';

/** What bounds a run: without both of these its cgroup would bound nothing worth having. */
const REQUIRED: readonly Controller[] = ['memory', 'pids'];

/** The interface files the selection reads in each directory it looks at (see readHostCgroups). */
const VIEWED_FILES = ['cgroup.controllers', 'cgroup.subtree_control', 'cgroup.procs', 'cgroup.type'] as const;

/** One cgroup directory as this process sees it: whether it may write there, and the interface files it holds (null: absent). */
export interface CgroupDirView {
  writable: boolean;
  files: Partial<Record<(typeof VIEWED_FILES)[number], string | null>>;
}

/** What a host shows this process of its cgroups: all selectCgroups decides from. */
export interface CgroupHostView {
  /** `/proc/self/mountinfo`. */
  mountinfo: string;
  /** `/proc/self/cgroup`. */
  cgroup: string;
  pid: number;
  /** The directories ownCgroupDirs names, by path. */
  dirs: Record<string, CgroupDirView>;
}

/** Where run cgroups go, and how they are made. */
export type CgroupChoice =
  | {
      version: 2;
      /** The service's cgroup: each sandbox's cgroup is made in it. */
      parent: string;
      /**
       * The worker first moves itself into a leaf of its cgroup: a cgroup other than the root may
       * not both hold processes and hand controllers to its children.
       */
      moveSelf: boolean;
      /** Controllers to enable in the parent's cgroup.subtree_control. */
      enable: Controller[];
      cpu: boolean;
    }
  | { version: 1; memory: string; pids: string; cpu: string | null }
  | { version: null; reason: string };

/** One line of /proc/self/mountinfo: what is mounted, where, and which part of its filesystem. */
interface Mount {
  root: string;
  point: string;
  type: string;
  options: string[];
}

const unescapeMount = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

function parseMounts(mountinfo: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    if (dash < 5 || fields.length < dash + 4) continue;
    mounts.push({
      root: unescapeMount(fields[3]),
      point: unescapeMount(fields[4]),
      type: fields[dash + 1],
      options: fields[dash + 3].split(','),
    });
  }
  return mounts;
}

/** A cgroup path of /proc/self/cgroup as a directory under `mount`, or null when that mount does not show it. */
function under(mount: Mount, path: string): string | null {
  const rest =
    mount.root === '/'
      ? path
      : path === mount.root
        ? ''
        : path.startsWith(`${mount.root}/`)
          ? path.slice(mount.root.length)
          : null;
  return rest === null ? null : join(mount.point, rest).replace(/(.)\/$/, '$1');
}

/** This process's own cgroup directories: in the unified (v2) hierarchy when mounted, and in the v1 hierarchies of the controllers a run uses. */
export function ownCgroupDirs(
  mountinfo: string,
  cgroup: string,
): { unified: string | null; v1: Partial<Record<Controller, string>> } {
  const mounts = parseMounts(mountinfo);
  const own = { unified: null as string | null, v1: {} as Partial<Record<Controller, string>> };
  for (const line of cgroup.split('\n')) {
    const match = /^\d+:([^:]*):(\/.*)$/.exec(line);
    if (!match) continue;
    const [, controllers, path] = match;
    if (controllers === '') {
      for (const m of mounts.filter((m) => m.type === 'cgroup2')) own.unified ??= under(m, path);
      continue;
    }
    for (const c of controllers
      .split(',')
      .filter((c): c is Controller => c === 'memory' || c === 'pids' || c === 'cpu')) {
      for (const m of mounts.filter((m) => m.type === 'cgroup' && m.options.includes(c)))
        own.v1[c] ??= under(m, path) ?? undefined;
    }
  }
  return own;
}

const words = (s: string | null | undefined) => (s ?? '').split(/\s+/).filter(Boolean);

/** Cgroup v2, when the service's cgroup is delegated to it with the controllers; else why not. */
function chooseV2(view: CgroupHostView, dir: string | null): CgroupChoice {
  if (!dir) return { version: null, reason: 'cgroup v2 is not mounted' };
  const d = view.dirs[dir];
  const available = words(d?.files['cgroup.controllers']);
  const missing = REQUIRED.filter((c) => !available.includes(c));
  if (!d || missing.length)
    return {
      version: null,
      reason: `cgroup v2: the service's cgroup ${dir} has no ${missing.join(' or ')} controller (delegate memory, pids and cpu to it)`,
    };
  if (!d.writable)
    return {
      version: null,
      reason: `cgroup v2: the service's cgroup ${dir} is not writable by this process (delegate it to the service's user)`,
    };
  const cpu = available.includes('cpu');
  const wanted: Controller[] = [...REQUIRED, ...(cpu ? (['cpu'] as const) : [])];
  const enabled = words(d.files['cgroup.subtree_control']);
  const enable = wanted.filter((c) => !enabled.includes(c));
  // The root cgroup (it has no cgroup.type) may hold processes and hand out controllers at once.
  const root = d.files['cgroup.type'] === null || d.files['cgroup.type'] === undefined;
  if (root) return { version: 2, parent: dir, moveSelf: false, enable, cpu };
  const others = words(d.files['cgroup.procs']).filter((pid) => pid !== String(view.pid));
  if (others.length && enable.length) {
    return {
      version: null,
      reason: `cgroup v2: the service's cgroup ${dir} holds ${others.length} other process(es); give the worker a delegated cgroup of its own`,
    };
  }
  return { version: 2, parent: dir, moveSelf: true, enable, cpu };
}

/** Cgroup v1, when this process may make cgroups beside its own in the memory and pids hierarchies; else why not. */
function chooseV1(view: CgroupHostView, dirs: Partial<Record<Controller, string>>): CgroupChoice {
  const usable = (c: Controller): string | { reason: string } => {
    const dir = dirs[c];
    if (!dir) return { reason: `cgroup v1: no ${c} hierarchy is mounted` };
    const d = view.dirs[dir];
    if (!d || d.files['cgroup.procs'] === null || d.files['cgroup.procs'] === undefined)
      return { reason: `cgroup v1: ${dir} is not readable` };
    if (!d.writable) return { reason: `cgroup v1: ${dir} is not writable by this process` };
    return dir;
  };
  const [memory, pids, cpu] = [usable('memory'), usable('pids'), usable('cpu')];
  if (typeof memory !== 'string') return { version: null, reason: memory.reason };
  if (typeof pids !== 'string') return { version: null, reason: pids.reason };
  return { version: 1, memory, pids, cpu: typeof cpu === 'string' ? cpu : null };
}

/**
 * Where the cgroups of runs go on a host that shows `view`: cgroup v2 when the service's cgroup
 * is delegated with the memory and pids controllers, else cgroup v1 when its memory and pids
 * hierarchies are writable beside this process's own cgroups, else why neither works.
 */
export function selectCgroups(view: CgroupHostView): CgroupChoice {
  const own = ownCgroupDirs(view.mountinfo, view.cgroup);
  const v2 = chooseV2(view, own.unified);
  if (v2.version) return v2;
  const v1 = chooseV1(view, own.v1);
  if (v1.version) return v1;
  return { version: null, reason: `${(v2 as { reason: string }).reason}; ${(v1 as { reason: string }).reason}` };
}

const readOrNull = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/** What this host shows this process of its cgroups (the input of selectCgroups). */
export function readHostCgroups(): CgroupHostView {
  const mountinfo = readOrNull('/proc/self/mountinfo') ?? '';
  const cgroup = readOrNull('/proc/self/cgroup') ?? '';
  const own = ownCgroupDirs(mountinfo, cgroup);
  const dirs: Record<string, CgroupDirView> = {};
  for (const dir of [own.unified, ...Object.values(own.v1)].filter((d): d is string => !!d)) {
    const files: CgroupDirView['files'] = {};
    for (const f of VIEWED_FILES) files[f] = readOrNull(join(dir, f));
    dirs[dir] = { writable: writable(dir) && writable(join(dir, 'cgroup.procs')), files };
  }
  return { mountinfo, cgroup, pid: process.pid, dirs };
}

/** What one run's cgroup enforces. */
export interface CgroupLimits {
  memoryBytes: number;
  processes: number;
  /** cgroup v2 cpu.weight (1-10000, 100 as any other cgroup); v1 cpu.shares in proportion. */
  cpuWeight: number;
  /** Whether the cgroup is scheduled as idle as a whole (cpu.idle, where the kernel has it). */
  cpuIdle: boolean;
}

/** A limit a run's cgroup saw its processes reach. */
export type CgroupLimitHit = 'memory' | 'processes';

export interface RunCgroup {
  readonly name: string;
  /** Puts a process (and its threads) into every hierarchy of the cgroup. */
  attach(pid: number): void;
  /** The processes in it. */
  procs(): number[];
  /** The limit its processes reached so far, if any: a process killed for memory, or a fork refused for the process limit. */
  hit(): CgroupLimitHit | null;
  /** Kills everything in it. */
  kill(): void;
  /** Kills what is left in it and removes it; false when it could not be removed yet (the sweep tries again). */
  remove(): Promise<boolean>;
}

const counter = (text: string | null, name: string) =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text ?? '')?.[1] ?? 0);

/** Writes `value` into an interface file that a kernel may not have (absent: nothing to set). */
function writeIfPresent(path: string, value: string): void {
  try {
    writeFileSync(path, value);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  }
}

function killAll(dirs: readonly string[]): void {
  for (const dir of dirs) {
    for (const pid of words(readOrNull(join(dir, 'cgroup.procs')))) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Removes a cgroup's directories once its processes are gone (they take a moment to exit after the kill); false when one stays. */
async function removeDirs(dirs: readonly string[], kill: () => void, tries = 40): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    kill();
    let left = 0;
    for (const dir of dirs) {
      try {
        rmdirSync(dir);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOENT') left++;
      }
    }
    if (!left) return true;
    await sleep(50);
  }
  return false;
}

/** The name of a cgroup of this deployment's process `pid`; the sweep reads the process id back from it. */
const cgroupName = (deployment: string, pid: number, suffix: string) => `rls-${deployment}-${pid}-${suffix}`;

/**
 * The cgroups of one worker process's sandboxes, in the place `choice` found: each sandbox gets
 * one of its own, named after this deployment and process, made before anything runs in it and
 * removed after.
 */
export class RunCgroups {
  private made = 0;
  /** Cgroups whose removal failed, tried again by removeLeftovers. */
  private readonly unremoved = new Set<readonly string[]>();

  constructor(
    readonly choice: Exclude<CgroupChoice, { version: null }>,
    private readonly deployment: string,
    private readonly limits: CgroupLimits,
  ) {}

  /**
   * Readies the place: with cgroup v2, the worker moves into a leaf of its cgroup (unless that is
   * the root) and enables the controllers for its children. Throws saying why when it cannot.
   */
  prepare(): void {
    const c = this.choice;
    if (c.version !== 2) return;
    if (c.moveSelf) {
      const leaf = join(c.parent, cgroupName(this.deployment, process.pid, 'worker'));
      mkdirSync(leaf, { recursive: true });
      writeFileSync(join(leaf, 'cgroup.procs'), String(process.pid));
    }
    if (c.enable.length)
      writeFileSync(join(c.parent, 'cgroup.subtree_control'), c.enable.map((x) => `+${x}`).join(' '));
  }

  /** The directories this process's sandboxes' cgroups are made in. */
  parents(): string[] {
    const c = this.choice;
    return c.version === 2 ? [c.parent] : [...new Set([c.memory, c.pids, c.cpu].filter((d): d is string => !!d))];
  }

  /** Makes a new sandbox's cgroup with its limits; throws (having removed what it made) when the kernel refuses. */
  create(): RunCgroup {
    const name = cgroupName(this.deployment, process.pid, String(++this.made));
    const c = this.choice;
    const l = this.limits;
    const at = (parent: string) => join(parent, name);
    const memory = at(c.version === 2 ? c.parent : c.memory);
    const pids = at(c.version === 2 ? c.parent : c.pids);
    const cpu = c.version === 2 ? (c.cpu ? memory : null) : c.cpu && at(c.cpu);
    const dirs = [...new Set([memory, pids, ...(cpu ? [cpu] : [])])];
    const made: string[] = [];
    try {
      for (const dir of dirs) {
        mkdirSync(dir);
        made.push(dir);
      }
      if (c.version === 2) {
        writeFileSync(join(memory, 'memory.max'), String(l.memoryBytes));
        // Swap is not a way around the limit: the run's memory and swap together stay within it.
        writeIfPresent(join(memory, 'memory.swap.max'), '0');
        // A process killed for memory takes the whole sandbox with it.
        writeIfPresent(join(memory, 'memory.oom.group'), '1');
        writeFileSync(join(pids, 'pids.max'), String(l.processes));
        if (cpu) writeFileSync(join(cpu, 'cpu.weight'), String(l.cpuWeight));
      } else {
        writeFileSync(join(memory, 'memory.limit_in_bytes'), String(l.memoryBytes));
        // Memory and swap together (present with swap accounting); set after the memory limit, which it may not be below.
        writeIfPresent(join(memory, 'memory.memsw.limit_in_bytes'), String(l.memoryBytes));
        writeFileSync(join(pids, 'pids.max'), String(l.processes));
        if (cpu)
          writeFileSync(
            join(cpu, 'cpu.shares'),
            String(Math.min(262144, Math.max(2, Math.round((l.cpuWeight * 1024) / 100)))),
          );
      }
      // After the weight, which the kernel refuses on an idle cgroup.
      if (cpu && l.cpuIdle) writeIfPresent(join(cpu, 'cpu.idle'), '1');
    } catch (err) {
      for (const dir of made) rmdirSync(dir);
      throw err;
    }
    const kill = () => {
      if (c.version === 2 && existsSync(join(memory, 'cgroup.kill')))
        return writeIfPresent(join(memory, 'cgroup.kill'), '1');
      killAll(dirs);
    };
    return {
      name,
      attach: (pid) => {
        for (const dir of dirs) writeFileSync(join(dir, 'cgroup.procs'), String(pid));
      },
      procs: () => words(readOrNull(join(pids, 'cgroup.procs'))).map(Number),
      hit: () => {
        if (counter(readOrNull(join(memory, c.version === 2 ? 'memory.events' : 'memory.oom_control')), 'oom_kill') > 0)
          return 'memory';
        if (counter(readOrNull(join(pids, 'pids.events')), 'max') > 0) return 'processes';
        return null;
      },
      kill,
      remove: async () => {
        if (await removeDirs(dirs, kill)) return true;
        this.unremoved.add(dirs);
        return false;
      },
    };
  }

  /** Tries again to remove the cgroups of this process whose removal failed; returns those that stay. */
  async retryUnremoved(): Promise<string[]> {
    const left: string[] = [];
    for (const dirs of this.unremoved) {
      if (await removeDirs(dirs, () => killAll(dirs), 1)) this.unremoved.delete(dirs);
      else left.push(...dirs);
    }
    return left;
  }
}

/**
 * The directories where this deployment's cgroups would be on a host that shows `view`: beside
 * this process's own cgroup in each v1 hierarchy a run uses, and in the unified hierarchy its own
 * cgroup (or the one it left for a leaf of its own, see RunCgroups.prepare).
 */
export function cgroupParents(view: CgroupHostView, deployment: string): string[] {
  const own = ownCgroupDirs(view.mountinfo, view.cgroup);
  const unified =
    own.unified && new RegExp(`^rls-${deployment}-\\d+-worker$`).test(basename(own.unified))
      ? dirname(own.unified)
      : own.unified;
  return [...new Set([unified, ...Object.values(own.v1)].filter((d): d is string => !!d))];
}

/**
 * Removes the cgroups this deployment's processes on this host left in `parents` when they died
 * (the worker's own leaf included): those whose process id is no longer running, after killing
 * anything still in them. Returns how many went and those that stayed.
 */
export async function removeAbandonedCgroups(
  parents: readonly string[],
  deployment: string,
): Promise<{ removed: number; failed: { path: string; error: string }[] }> {
  const result = { removed: 0, failed: [] as { path: string; error: string }[] };
  const mine = new RegExp(`^rls-${deployment}-(\\d+)-`);
  for (const parent of parents) {
    let names: string[];
    try {
      names = readdirSync(parent, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(mine.exec(name)?.[1] ?? NaN);
      if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
      const dir = join(parent, name);
      if (await removeDirs([dir], () => killAll([dir]), 10)) result.removed++;
      else result.failed.push({ path: dir, error: 'processes are still in it' });
    }
  }
  return result;
}
