import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import { sshKeyProblem } from './rules.js';
import {
  deleteSshKey,
  findSshKeyToAssign,
  insertSshKey,
  sealedSshKeyOfWorkspace,
  updateSshKey,
  type SshKeyRow,
} from './repo.js';
import { updateWorkspace, type WorkspaceRow } from '../workspaces/index.js';

/*
 * SSH keys: private keys an organization keeps for runs whose configurations fetch modules over
 * git+ssh. The key is sealed at rest, never returned, and written only into the run's own
 * directory for the phase's Terraform (see prepareWorkdir).
 */

/** What a request sets on a key; `value` is the private key's text. */
export interface SshKeyInput {
  name?: string;
  value?: string;
}

/** The sealed form of a value a request gives, refused with 422 when it cannot be a private key. */
function sealedValue(rt: Runtime, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = sshKeyProblem(value);
  if (problem) throw new Unprocessable(problem, { attribute: 'value' });
  return encryptSecret(rt.config.encryptionKey, value);
}

/** Creates a key in an organization. */
export async function createSshKey(
  rt: Runtime,
  organizationName: string,
  input: { name: string; value: string },
): Promise<SshKeyRow> {
  return insertSshKey(rt.db, organizationName, { name: input.name, value_sealed: sealedValue(rt, input.value)! });
}

/** Changes a key's name or private key. */
export async function changeSshKey(rt: Runtime, key: SshKeyRow, input: SshKeyInput): Promise<SshKeyRow> {
  const changed = await updateSshKey(rt.db, key.id, { name: input.name, value_sealed: sealedValue(rt, input.value) });
  if (!changed) throw new NotFound();
  return changed;
}

/** Deletes a key; the workspaces that used it no longer have one. */
export async function removeSshKey(rt: Runtime, key: SshKeyRow): Promise<void> {
  if (!(await deleteSshKey(rt.db, key.id))) throw new NotFound();
}

/** Assigns a key of the workspace's organization to it (422 for any other), or unassigns it (null). */
export async function assignSshKey(rt: Runtime, ws: WorkspaceRow, keyId: string | null): Promise<WorkspaceRow> {
  return rt.db.transaction(async (tx) => {
    const key = keyId === null ? null : await findSshKeyToAssign(tx, keyId);
    if (key === undefined || (key && key.organization_name !== ws.organization_name))
      throw new Unprocessable(`SSH key ${keyId} not found in the organization`, { attribute: 'id' });
    return updateWorkspace(tx, ws, { ssh_key_id: keyId });
  });
}

/** A sealed private key opened (null stays null): for a phase's directory only, never a response, log or job. */
export const openSshKey = (encryptionKey: Buffer, sealed: string | null): string | null =>
  sealed === null ? null : decryptSecret(encryptionKey, sealed);

/** The private key a workspace's runs use (null when the workspace has none), as openSshKey gives it. */
export async function workspaceSshKey(db: Db, encryptionKey: Buffer, workspaceId: string): Promise<string | null> {
  return openSshKey(encryptionKey, await sealedSshKeyOfWorkspace(db, workspaceId));
}
