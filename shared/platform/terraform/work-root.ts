import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../crypto.js';

/** The database a deployment writes to, without its credentials: what tells two deployments on one host apart. */
function databaseOf(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port}${url.pathname}${url.searchParams.get('host') ?? ''}`;
  } catch {
    return databaseUrl;
  }
}

/**
 * What names one deployment's things on a host (its run directories' root, its runs' cgroups): a
 * digest of its database and queue prefix, which runs see in their paths, so neither is spelled
 * out. Deployments sharing a host each make, and clean up after a crash, only their own.
 */
export function deploymentTag(deployment: { databaseUrl: string; queuePrefix: string }): string {
  return sha256Hex(`${databaseOf(deployment.databaseUrl)}|${deployment.queuePrefix}`).slice(0, 16);
}

/** The directory under the temporary directory (`base`) that holds one deployment's run working directories. */
export function deploymentWorkRoot(deployment: { databaseUrl: string; queuePrefix: string }, base = tmpdir()): string {
  return join(base, `rls-work-${deploymentTag(deployment)}`);
}

/**
 * Makes `root` when it is missing and returns it, refusing one that is not a plain directory of
 * this process's user, or that others may write to: its name is predictable in a shared /tmp, where
 * another user could have made it (or a link by that name) to read or replace what runs put there.
 * Mode 0711: a sandbox's user goes through it to its own private directory; nobody lists it.
 */
export function ensureWorkRoot(root: string): string {
  try {
    mkdirSync(root, { recursive: true, mode: 0o711 });
  } catch {
    // Something else has the name (a dangling link, a file): refused below.
  }
  const st = lstatSync(root);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(
      `the run directory root ${root} is not a directory of this process's user; remove it (or set TMPDIR elsewhere) and try again`,
    );
  }
  if ((st.mode & 0o777) !== 0o711) chmodSync(root, 0o711);
  return root;
}
