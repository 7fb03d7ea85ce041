import { iso, one, type Resource } from '../jsonapi.js';
import type { NamedRunTriggerRow } from '../../shared/run-triggers/repo.js';

/** A run trigger: the workspace that gets the runs (`workspace`) and the one whose applies queue them (`sourceable`). */
export function runTriggerResource(t: NamedRunTriggerRow): Resource {
  return {
    type: 'run-triggers',
    id: t.id,
    attributes: {
      'workspace-name': t.workspace_name,
      'sourceable-name': t.sourceable_name,
      'created-at': iso(t.created_at),
    },
    relationships: {
      workspace: one('workspaces', t.workspace_id),
      sourceable: one('workspaces', t.sourceable_id),
    },
    links: { self: `/api/v2/run-triggers/${t.id}` },
  };
}
