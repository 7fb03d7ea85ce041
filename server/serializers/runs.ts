import { iso, one, type Resource } from '../jsonapi.js';
import type { RunRow } from '../../shared/repos/runs.js';

/** The run document (the fields queueing sets; the run engine adds plan, apply and actions). */
export function runResource(run: RunRow): Resource {
  return {
    type: 'runs',
    id: run.id,
    attributes: {
      status: run.status,
      source: run.source,
      message: run.message,
      'is-destroy': run.is_destroy,
      'auto-apply': run.auto_apply,
      'plan-only': run.plan_only,
      refresh: run.refresh,
      'refresh-only': run.refresh_only,
      'save-plan': run.save_plan,
      'target-addrs': run.target_addrs,
      'replace-addrs': run.replace_addrs,
      'status-timestamps': run.status_timestamps,
      'created-at': iso(run.created_at),
      actions: { 'is-cancelable': false, 'is-confirmable': false, 'is-discardable': false, 'is-force-cancelable': false },
    },
    relationships: {
      workspace: one('workspaces', run.workspace_id),
      'configuration-version': one('configuration-versions', run.configuration_version_id),
      'created-by': one('users', run.created_by_id),
    },
    links: { self: `/api/v2/runs/${run.id}` },
  };
}
