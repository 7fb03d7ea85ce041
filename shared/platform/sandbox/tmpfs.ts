import { closeSync, openSync, statfsSync } from 'node:fs';

const PAGE = 4096;
const TMPFS_MAGIC = 0x01021994;

/** One writable tmpfs mount of a sandbox and its size in bytes. */
export interface TmpfsMount {
  path: string;
  bytes: number;
}

/**
 * The writable tmpfs mounts of a sandbox, together within its disk limit (`diskBytes`): an
 * eighth for /dev/shm, the rest for /tmp, in whole pages. Their pages are memory of the host,
 * so neither may grow past this.
 */
export function sandboxTmpfs(diskBytes: number): TmpfsMount[] {
  const pages = Math.max(2, Math.floor(diskBytes / PAGE));
  const shm = Math.max(1, Math.floor(pages / 8));
  return [
    { path: '/tmp', bytes: (pages - shm) * PAGE },
    { path: '/dev/shm', bytes: shm * PAGE },
  ];
}

/**
 * A sandbox's tmpfs mounts held open by the worker, so that whether one is full can be read from
 * outside the sandbox until the worker lets go, after its last process has exited too.
 */
export class HeldTmpfs {
  private held: { path: string; fd: number }[] = [];

  constructor(private readonly mounts: readonly TmpfsMount[]) {}

  /**
   * Opens every mount through `pid`, the sandbox's first process, once its root is the
   * sandbox's (each mount then shows the size it was given); false while it is not yet.
   */
  tryHold(pid: number): boolean {
    const up = this.mounts.every((m) => {
      try {
        const fs = statfsSync(`/proc/${pid}/root${m.path}`);
        return fs.type === TMPFS_MAGIC && fs.blocks === Math.ceil(m.bytes / fs.bsize);
      } catch {
        return false;
      }
    });
    if (!up) return false;
    this.release();
    for (const m of this.mounts) this.held.push({ path: m.path, fd: openSync(`/proc/${pid}/root${m.path}`, 'r') });
    return true;
  }

  /** The path of a held mount with no space left, if any. */
  full(): string | null {
    for (const h of this.held) {
      try {
        if (statfsSync(`/proc/self/fd/${h.fd}`).bfree === 0) return h.path;
      } catch {
        // not readable: nothing to say
      }
    }
    return null;
  }

  /** Lets go of the mounts (the kernel frees them once nothing else holds them). */
  release(): void {
    for (const h of this.held) closeSync(h.fd);
    this.held = [];
  }
}
