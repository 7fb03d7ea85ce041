import type { Runtime } from '../runtime.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import { allows, type WorkspaceAccess } from '../identity/index.js';
import { usableForRuns } from '../configuration-versions/machine.js';
import type { RunSourceCv } from '../configuration-versions/queries.js';
import type { WorkspaceRow } from '../workspaces/repo.js';
import { createRun, type CreatedRun } from './commands.js';
import type { IdempotencyColumns } from '../idempotency/repo.js';
import { secretsWithheldFrom } from './withheld-secrets.js';

/** The attributes a client sets on a run it creates. */
export type RunRequest = {
  message?: string;
  'is-destroy'?: boolean;
  'auto-apply'?: boolean;
  'plan-only'?: boolean;
  refresh?: boolean;
  'refresh-only'?: boolean;
  'save-plan'?: boolean;
  'allow-empty-apply'?: boolean;
  'target-addrs'?: string[];
  'replace-addrs'?: string[];
  variables?: { key: string; value: string }[];
  'terraform-version'?: string;
};

/**
 * Creates a run a client asked for in a workspace where it may queue plans, from the named
 * configuration version (`cvNamed`) or the workspace's current one, `cv` (looked at only once the
 * workspace is known to run remotely). Applying runs need the apply permission (404 otherwise).
 */
export async function createRequestedRun(
  rt: Runtime,
  ws: WorkspaceRow,
  access: WorkspaceAccess,
  cv: RunSourceCv | undefined,
  cvNamed: boolean,
  attrs: RunRequest,
  actorId: string | null,
  idempotency: IdempotencyColumns | null = null,
): Promise<CreatedRun> {
  if (ws.execution_mode === 'local')
    throw new Unprocessable('the workspace uses local execution; runs are not executed remotely', {
      relationship: 'workspace',
    });
  if (!cv || cv.workspace_id !== ws.id) {
    throw new Unprocessable(
      cvNamed
        ? 'configuration version not found in this workspace'
        : 'the workspace has no configuration version; upload one first',
      { relationship: 'configuration-version' },
    );
  }
  if (cv.speculative && attrs['plan-only'] === false)
    throw new Unprocessable('a speculative configuration version can only be used for plan-only runs', {
      attribute: 'plan-only',
    });
  if (attrs['refresh-only'] && attrs['is-destroy'])
    throw new Unprocessable('refresh-only runs cannot destroy', { attribute: 'refresh-only' });
  const planOnly = attrs['plan-only'] ?? cv.speculative;
  // Who may not start an applying run learns nothing more about the version (404 first).
  if (!planOnly && !allows(access, 'apply')) throw new NotFound();
  if (!usableForRuns(cv.status, cv.source))
    throw new Unprocessable(`the configuration version is ${cv.status}, not uploaded`, {
      relationship: 'configuration-version',
    });
  // As in Terraform Cloud, only a plan-only run may ask for a Terraform version of its own.
  if (attrs['terraform-version'] && !planOnly)
    throw new Unprocessable('terraform-version is only valid for plan-only runs', { attribute: 'terraform-version' });
  const secretsWithheld = await secretsWithheldFrom(rt.db, ws.organization_name, {
    planOnly,
    planAccessOnly: !allows(access, 'apply'),
  });
  return createRun(
    rt,
    {
      workspace_id: ws.id,
      configuration_version_id: cv.id,
      source: 'tfe-api',
      message: attrs.message ?? 'Queued manually via the Terraform Enterprise API',
      is_destroy: attrs['is-destroy'] ?? false,
      auto_apply: attrs['auto-apply'] ?? ws.auto_apply,
      plan_only: planOnly,
      refresh: attrs.refresh ?? true,
      refresh_only: attrs['refresh-only'] ?? false,
      save_plan: attrs['save-plan'] ?? false,
      allow_empty_apply: attrs['allow-empty-apply'] ?? false,
      target_addrs: attrs['target-addrs'] ?? [],
      replace_addrs: attrs['replace-addrs'] ?? [],
      variables: attrs.variables ?? [],
      terraform_version: attrs['terraform-version'] ?? null,
      created_by_id: actorId,
      ...idempotency,
      secrets_withheld: secretsWithheld,
    },
    ws.organization_name,
  );
}
