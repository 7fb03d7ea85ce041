import { expect } from 'chai';
import {
  cgroupParents,
  selectCgroups,
  type CgroupDirView,
  type CgroupHostView,
} from '../../../../shared/platform/sandbox/cgroups.js';
import { sandboxTmpfs } from '../../../../shared/platform/sandbox/tmpfs.js';

const PID = 4242;

/** A mountinfo line of a cgroup filesystem. */
const mount = (id: number, point: string, type: 'cgroup' | 'cgroup2', options: string, root = '/') =>
  `${id} 31 0:${id} ${root} ${point} rw,nosuid,nodev,noexec,relatime - ${type} ${type} rw,${options}`;

/** A directory this process may write to, or not, with the given interface files. */
const dir = (files: CgroupDirView['files'], writable = true): CgroupDirView => ({ writable, files });

/** A v1 cgroup directory (it has cgroup.procs; v1 has no cgroup.controllers). */
const v1Dir = (writable = true) => dir({ 'cgroup.procs': `${PID}\n` }, writable);

/** The hybrid layout of a host with v1 controllers and an empty unified hierarchy (the one the integration tests run on). */
const HYBRID_MOUNTS = [
  mount(32, '/sys/fs/cgroup/cpu', 'cgroup', 'cpu'),
  mount(33, '/sys/fs/cgroup/cpuacct', 'cgroup', 'cpuacct'),
  mount(35, '/sys/fs/cgroup/memory', 'cgroup', 'memory'),
  mount(39, '/sys/fs/cgroup/pids', 'cgroup', 'pids'),
  mount(40, '/sys/fs/cgroup/systemd', 'cgroup', 'name=systemd'),
  mount(41, '/sys/fs/cgroup/unified', 'cgroup2', ''),
].join('\n');
const HYBRID_CGROUP = ['9:name=systemd:/', '8:pids:/', '4:memory:/svc/abc', '2:cpuacct:/', '1:cpu:/', '0::/'].join(
  '\n',
);

function hybrid(overrides: Record<string, CgroupDirView> = {}): CgroupHostView {
  return {
    mountinfo: HYBRID_MOUNTS,
    cgroup: HYBRID_CGROUP,
    pid: PID,
    dirs: {
      // The unified root: no cgroup.type, and no controller left to it (they are all bound to v1 hierarchies).
      '/sys/fs/cgroup/unified': dir({
        'cgroup.controllers': '',
        'cgroup.subtree_control': '',
        'cgroup.procs': '1\n',
        'cgroup.type': null,
      }),
      '/sys/fs/cgroup/memory/svc/abc': v1Dir(),
      '/sys/fs/cgroup/pids': v1Dir(),
      '/sys/fs/cgroup/cpu': v1Dir(),
      ...overrides,
    },
  };
}

/** A host with the unified hierarchy only, this process in `path`. */
function unified(path: string, d: CgroupDirView): CgroupHostView {
  return {
    mountinfo: mount(30, '/sys/fs/cgroup', 'cgroup2', 'nsdelegate'),
    cgroup: `0::${path}`,
    pid: PID,
    dirs: { [`/sys/fs/cgroup${path === '/' ? '' : path}`]: d },
  };
}

const delegated = (procs: string, extra: CgroupDirView['files'] = {}) =>
  dir({
    'cgroup.controllers': 'cpuset cpu io memory pids',
    'cgroup.subtree_control': '',
    'cgroup.procs': procs,
    'cgroup.type': 'domain',
    ...extra,
  });

describe('cgroup selection from what the host shows', () => {
  it("a hybrid host whose unified hierarchy has no controllers uses v1 beside the process's own cgroup in each hierarchy", () => {
    const choice = selectCgroups(hybrid());
    expect(choice).to.deep.equal({
      version: 1,
      memory: '/sys/fs/cgroup/memory/svc/abc',
      pids: '/sys/fs/cgroup/pids',
      cpu: '/sys/fs/cgroup/cpu',
    });
  });

  it('v1 without a writable memory hierarchy is refused, saying which directory, after saying why v2 is not used', () => {
    const choice = selectCgroups(hybrid({ '/sys/fs/cgroup/memory/svc/abc': v1Dir(false) }));
    expect(choice.version).to.equal(null);
    expect((choice as { reason: string }).reason).to.equal(
      "cgroup v2: the service's cgroup /sys/fs/cgroup/unified has no memory or pids controller (delegate memory, pids and cpu to it); cgroup v1: /sys/fs/cgroup/memory/svc/abc is not writable by this process",
    );
  });

  it('v1 without a pids hierarchy mounted is refused; without a cpu hierarchy it is used with no weight', () => {
    const noPids = {
      ...hybrid(),
      mountinfo: HYBRID_MOUNTS.split('\n')
        .filter((l) => !l.includes('pids'))
        .join('\n'),
    };
    expect((selectCgroups(noPids) as { reason: string }).reason).to.match(/cgroup v1: no pids hierarchy is mounted$/);
    const noCpu = {
      ...hybrid(),
      mountinfo: HYBRID_MOUNTS.split('\n')
        .filter((l) => !l.includes('/cpu '))
        .join('\n'),
    };
    expect(selectCgroups(noCpu)).to.deep.include({ version: 1, cpu: null });
  });

  it("v1 in a container: a hierarchy mounted from a subtree maps the process's path under its mount point; cpu co-mounted with cpuacct", () => {
    const view: CgroupHostView = {
      mountinfo: [
        mount(50, '/sys/fs/cgroup/memory', 'cgroup', 'memory', '/docker/c1'),
        mount(51, '/sys/fs/cgroup/pids', 'cgroup', 'pids', '/docker/c1'),
        mount(52, '/sys/fs/cgroup/cpu,cpuacct', 'cgroup', 'cpu,cpuacct', '/docker/c1'),
      ].join('\n'),
      cgroup: ['5:memory:/docker/c1/app', '4:pids:/docker/c1', '3:cpu,cpuacct:/docker/c1'].join('\n'),
      pid: PID,
      dirs: {
        '/sys/fs/cgroup/memory/app': v1Dir(),
        '/sys/fs/cgroup/pids': v1Dir(),
        '/sys/fs/cgroup/cpu,cpuacct': v1Dir(),
      },
    };
    expect(selectCgroups(view)).to.deep.equal({
      version: 1,
      memory: '/sys/fs/cgroup/memory/app',
      pids: '/sys/fs/cgroup/pids',
      cpu: '/sys/fs/cgroup/cpu,cpuacct',
    });
  });

  it('a delegated v2 cgroup holding only this process is preferred: the worker moves into a leaf and enables memory, pids and cpu', () => {
    const choice = selectCgroups(unified('/system.slice/rls-worker.service', delegated(`${PID}\n`)));
    expect(choice).to.deep.equal({
      version: 2,
      parent: '/sys/fs/cgroup/system.slice/rls-worker.service',
      moveSelf: true,
      enable: ['memory', 'pids', 'cpu'],
      cpu: true,
    });
  });

  it('v2 is preferred over usable v1 hierarchies when both are there', () => {
    const view = hybrid({
      '/sys/fs/cgroup/unified': dir({
        'cgroup.controllers': 'memory pids',
        'cgroup.subtree_control': 'memory pids',
        'cgroup.procs': '',
        'cgroup.type': null,
      }),
    });
    expect(selectCgroups(view)).to.deep.equal({
      version: 2,
      parent: '/sys/fs/cgroup/unified',
      moveSelf: false,
      enable: [],
      cpu: false,
    });
  });

  it('the v2 root cgroup is used in place (it may hold processes and hand out controllers), enabling what is missing', () => {
    const choice = selectCgroups(
      unified(
        '/',
        dir({
          'cgroup.controllers': 'cpu memory pids',
          'cgroup.subtree_control': 'memory',
          'cgroup.procs': `1\n${PID}\n`,
          'cgroup.type': null,
        }),
      ),
    );
    expect(choice).to.deep.equal({
      version: 2,
      parent: '/sys/fs/cgroup',
      moveSelf: false,
      enable: ['pids', 'cpu'],
      cpu: true,
    });
  });

  it("v2 is refused when the service's cgroup is shared with other processes, lacks a controller or is not writable, and no v1 is there", () => {
    const shared = selectCgroups(unified('/user.slice/session-1.scope', delegated(`${PID}\n77\n88\n`)));
    expect((shared as { reason: string }).reason).to.equal(
      "cgroup v2: the service's cgroup /sys/fs/cgroup/user.slice/session-1.scope holds 2 other process(es); give the worker a delegated cgroup of its own; cgroup v1: no memory hierarchy is mounted",
    );
    const noPids = selectCgroups(unified('/svc', delegated(`${PID}\n`, { 'cgroup.controllers': 'cpu memory' })));
    expect((noPids as { reason: string }).reason).to.match(
      /^cgroup v2: the service's cgroup \/sys\/fs\/cgroup\/svc has no pids controller/,
    );
    const readOnly = selectCgroups(unified('/svc', { ...delegated(`${PID}\n`), writable: false }));
    expect((readOnly as { reason: string }).reason).to.match(
      /^cgroup v2: the service's cgroup \/sys\/fs\/cgroup\/svc is not writable by this process/,
    );
  });

  it('without a cpu controller delegated, v2 bounds memory and processes and sets no weight', () => {
    const choice = selectCgroups(unified('/svc', delegated(`${PID}\n`, { 'cgroup.controllers': 'memory pids' })));
    expect(choice).to.deep.include({ version: 2, enable: ['memory', 'pids'], cpu: false });
  });

  it("leftovers are looked for beside the process's own cgroups, and in the cgroup a worker left for a leaf of its own", () => {
    expect(cgroupParents(hybrid(), 'abcdef0123456789')).to.deep.equal([
      '/sys/fs/cgroup/unified',
      '/sys/fs/cgroup/pids',
      '/sys/fs/cgroup/memory/svc/abc',
      '/sys/fs/cgroup/cpu',
    ]);
    const moved = unified('/svc/rls-abcdef0123456789-4242-worker', delegated(`${PID}\n`));
    expect(cgroupParents(moved, 'abcdef0123456789')).to.deep.equal(['/sys/fs/cgroup/svc']);
    // Another deployment's leaf is not this one's to look beside.
    expect(cgroupParents(moved, '0000000000000000')).to.deep.equal([
      '/sys/fs/cgroup/svc/rls-abcdef0123456789-4242-worker',
    ]);
  });
});

describe("a sandbox's tmpfs mounts", () => {
  it('/tmp and /dev/shm together are the disk limit, in whole pages, an eighth of it for /dev/shm', () => {
    const mib = 1048576;
    expect(sandboxTmpfs(20 * mib)).to.deep.equal([
      { path: '/tmp', bytes: 20 * mib - 640 * 4096 },
      { path: '/dev/shm', bytes: 640 * 4096 },
    ]);
    const small = sandboxTmpfs(1000);
    expect(small.map((m) => m.bytes)).to.deep.equal([4096, 4096]);
    for (const limit of [mib, 10240 * mib, 12345678]) {
      const sizes = sandboxTmpfs(limit).map((m) => m.bytes);
      expect(sizes[0] + sizes[1]).to.be.at.most(limit);
      for (const s of sizes) expect(s % 4096).to.equal(0);
    }
  });
});
