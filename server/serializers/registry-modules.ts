import { iso, many, one, type Resource } from '../jsonapi.js';
import type { RegistryModuleRow } from '../../shared/module-tests/repo.js';
import type { ModuleVersionRow } from '../../shared/registry/repo.js';
import type { ModuleView } from '../../shared/registry/queries.js';
import { moduleStatus } from '../../shared/registry/index.js';
import type { ModuleDetails } from '../../shared/registry/module-config.rules.js';

/** The public registry a `public` module reference resolves to. */
export const PUBLIC_REGISTRY_HOST = 'registry.terraform.io';

const modulePathOf = (m: RegistryModuleRow) =>
  `/api/v2/organizations/${m.organization_name}/registry-modules/${m.registry_name}/${m.namespace}/${m.name}/${m.provider}`;

/**
 * The address a configuration names the module by in `source`: this service's host for private
 * modules, the public registry for public references (which this service never serves).
 */
export const moduleAddress = (m: RegistryModuleRow, hostname: string) =>
  `${m.registry_name === 'public' ? PUBLIC_REGISTRY_HOST : hostname}/${m.namespace}/${m.name}/${m.provider}`;

/** What the caller may do with modules: deleting, resyncing and retrying take manage-modules (for public references too, as TFE shows them). */
export interface ModulePermissions {
  manage: boolean;
}

/** `noCode`: the list was asked for `include=no-code-modules`. */
export function registryModuleResource(
  view: ModuleView,
  opts: { hostname: string; permissions: ModulePermissions; noCode?: boolean },
): Resource {
  const m = view.module;
  const isPrivate = m.registry_name === 'private';
  return {
    type: 'registry-modules',
    id: m.id,
    attributes: {
      name: m.name,
      provider: m.provider,
      namespace: m.namespace,
      'registry-name': m.registry_name,
      // A public reference has no versions here: the public registry serves it.
      status: isPrivate ? moduleStatus(view.versions.map((v) => v.status)) : 'setup_complete',
      'version-statuses': view.versions.map((v) => ({
        version: v.version,
        status: v.status,
        ...(v.error ? { error: v.error } : {}),
      })),
      'latest-version': view.latest,
      'publishing-mechanism': isPrivate ? (m.vcs_repo ? 'git_tag' : 'api') : null,
      'vcs-repo': m.vcs_repo,
      source: moduleAddress(m, opts.hostname),
      'no-code': view.noCode,
      'test-config': { 'tests-enabled': isPrivate },
      permissions: {
        'can-delete': opts.permissions.manage,
        'can-resync': opts.permissions.manage,
        'can-retry': opts.permissions.manage,
      },
      'created-at': iso(m.created_at),
      'updated-at': iso(m.updated_at),
    },
    relationships: {
      organization: one('organizations', m.organization_name),
      ...(opts.noCode
        ? { 'no-code-modules': many('no-code-modules', view.noCodeModuleId ? [view.noCodeModuleId] : []) }
        : {}),
    },
    links: { self: modulePathOf(m) },
  };
}

/** A module version; `uploadUrl` only in the creation response. */
export function moduleVersionResource(
  v: ModuleVersionRow,
  module: RegistryModuleRow,
  opts: { uploadUrl?: string; testStatus?: string | null } = {},
): Resource {
  return {
    type: 'registry-module-versions',
    id: v.id,
    attributes: {
      version: v.version,
      status: v.status,
      error: v.error,
      source: 'tfe-api',
      'commit-sha': v.commit_sha,
      'test-status': opts.testStatus ?? null,
      'created-at': iso(v.created_at),
      'updated-at': iso(v.updated_at),
    },
    relationships: {
      'registry-module': one('registry-modules', module.id),
      'test-run': one('test-runs', v.test_run_id),
    },
    links: { self: `${modulePathOf(module)}/${v.version}`, ...(opts.uploadUrl ? { upload: opts.uploadUrl } : {}) },
  };
}

/** A module directory as the registry protocol's detail endpoint shows it. */
const detailsOf = (d: ModuleDetails | null, path: string): Record<string, unknown> => ({
  path,
  name: path ? path.split('/').pop() : '',
  readme: d?.readme ?? '',
  empty: d?.empty ?? true,
  inputs: d?.inputs ?? [],
  outputs: d?.outputs ?? [],
  dependencies: d?.dependencies ?? [],
  provider_dependencies: [],
  resources: d?.resources ?? [],
});

/** The registry protocol's module detail (`/api/registry/v1/modules/:ns/:name/:provider[/:version]`). */
export function moduleDetail(
  m: RegistryModuleRow,
  v: ModuleVersionRow,
  allVersions: string[],
  hostname: string,
): Record<string, unknown> {
  return {
    id: `${m.namespace}/${m.name}/${m.provider}/${v.version}`,
    owner: '',
    namespace: m.namespace,
    name: m.name,
    version: v.version,
    provider: m.provider,
    provider_logo_url: '',
    description: '',
    source: moduleAddress(m, hostname),
    tag: '',
    published_at: iso(v.created_at),
    downloads: 0,
    verified: false,
    root: detailsOf(v.root, ''),
    submodules: (v.submodules ?? []).map((s) => detailsOf(s, s.path)),
    examples: [],
    providers: [m.provider],
    versions: allVersions,
  };
}
