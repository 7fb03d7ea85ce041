import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../errors.js';
import { findWorkspaceByName, insertWorkspace, updateWorkspace, type WorkspaceRow, type WorkspaceSettings } from '../repos/workspaces.js';

const nameTaken = () => new Unprocessable('name has already been taken', '/data/attributes/name');

/**
 * File triggers follow either prefixes or patterns, not both: a request that sets both non-empty
 * is refused; one that sets either non-empty clears the other.
 */
function triggers(settings: WorkspaceSettings): WorkspaceSettings {
  const prefixes = settings.trigger_prefixes ?? [];
  const patterns = settings.trigger_patterns ?? [];
  if (prefixes.length && patterns.length) throw new Unprocessable('only one of trigger-prefixes and trigger-patterns may be set', '/data/attributes/trigger-patterns');
  if (prefixes.length) return { ...settings, trigger_patterns: [] };
  if (patterns.length) return { ...settings, trigger_prefixes: [] };
  return settings;
}

/** Creates a workspace in an organization; its name must be free there. */
export async function createWorkspace(rt: Runtime, organizationName: string, settings: WorkspaceSettings & { name: string }): Promise<WorkspaceRow> {
  return rt.db.transaction(async (tx) => {
    if (await findWorkspaceByName(tx, organizationName, settings.name)) throw nameTaken();
    return insertWorkspace(tx, organizationName, { ...triggers(settings), name: settings.name });
  });
}

/** Changes a workspace's settings; a new name must be free in its organization. */
export async function changeWorkspace(rt: Runtime, ws: WorkspaceRow, settings: WorkspaceSettings): Promise<WorkspaceRow> {
  return rt.db.transaction(async (tx) => {
    if (settings.name && settings.name !== ws.name && (await findWorkspaceByName(tx, ws.organization_name, settings.name))) throw nameTaken();
    return updateWorkspace(tx, ws.id, triggers(settings));
  });
}
