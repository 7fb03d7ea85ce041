import type { Db } from '../platform/db.js';
import { compareSemver, latestVersion, type ModuleVersionStatus } from './machine.js';
import type { RegistryModuleRow } from '../module-tests/repo.js';
import type { ModuleVersionRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One version as the module's `version-statuses` shows it, with its test run's outcome. */
export interface VersionStatus {
  version: string;
  status: ModuleVersionStatus;
  error: string | null;
  test_run_id: string | null;
  test_status: string | null;
}

/** A module with what its resource shows of its versions. */
export interface ModuleView {
  module: RegistryModuleRow;
  versions: VersionStatus[];
  latest: string | null;
  /** The module's no-code module, when it is offered as one. */
  noCodeModuleId: string | null;
  /** Whether that no-code module is enabled (the module's `no-code`). */
  noCode: boolean;
}

/** The modules with their versions (by semver precedence) and their latest published version. */
export async function moduleViews(db: Db, modules: RegistryModuleRow[]): Promise<ModuleView[]> {
  const rows = modules.length
    ? ((await db('registry_module_versions as v')
        .leftJoin('test_runs as t', 't.id', 'v.test_run_id')
        .whereIn(
          'v.registry_module_id',
          modules.map((m) => m.id),
        )
        .select(
          'v.registry_module_id',
          'v.version',
          'v.status',
          'v.error',
          'v.test_run_id',
          't.test_status',
        )) as (VersionStatus & { registry_module_id: string })[])
    : [];
  const noCode = modules.length
    ? ((await db('no_code_modules')
        .whereIn(
          'registry_module_id',
          modules.map((m) => m.id),
        )
        .select('registry_module_id', 'id', 'enabled')) as {
        registry_module_id: string;
        id: string;
        enabled: boolean;
      }[])
    : [];
  return modules.map((module) => {
    const offered = noCode.find((n) => n.registry_module_id === module.id);
    const versions = rows
      .filter((r) => r.registry_module_id === module.id)
      .map(({ version, status, error, test_run_id, test_status }) => ({
        version,
        status,
        error,
        test_run_id,
        test_status,
      }))
      .sort((a, b) => compareSemver(a.version, b.version));
    return {
      module,
      versions,
      latest: latestVersion(versions.filter((v) => v.status === 'ok').map((v) => v.version)),
      noCodeModuleId: offered?.id ?? null,
      noCode: offered?.enabled ?? false,
    };
  });
}

export const moduleView = async (db: Db, module: RegistryModuleRow): Promise<ModuleView> =>
  (await moduleViews(db, [module]))[0];

export interface ModuleFilters {
  provider?: string;
  registryName?: string;
}

/** One page of an organization's registry modules (private and public references), by name and provider. */
export async function modulePage(db: Db, organizationName: string, page: Page, filters: ModuleFilters = {}) {
  const query = db('registry_modules').where({ organization_name: organizationName });
  if (filters.provider !== undefined) query.where({ provider: filters.provider });
  if (filters.registryName !== undefined) query.where({ registry_name: filters.registryName });
  const { rows, total } = await fetchPage<RegistryModuleRow>(
    query.orderBy('name').orderBy('provider').orderBy('registry_name').orderBy('id'),
    page,
  );
  return { views: await moduleViews(db, rows), total };
}

/** The modules of an organization's registry with this namespace and name (every provider). */
export const modulesNamed = (
  db: Db,
  a: { organization: string; registryName: string; namespace: string; name: string },
) =>
  db<RegistryModuleRow>('registry_modules')
    .where({ organization_name: a.organization, registry_name: a.registryName, namespace: a.namespace, name: a.name })
    .orderBy('provider');

/** Every module of an organization's registry with this name: private modules and public references, any provider. */
export const modulesOfOrganizationNamed = (db: Db, organization: string, name: string) =>
  db<RegistryModuleRow>('registry_modules')
    .where({ organization_name: organization, name })
    .orderBy('registry_name')
    .orderBy('namespace')
    .orderBy('provider');

/** A module's published (`ok`) versions, by semver precedence. */
export async function publishedVersions(db: Db, moduleId: string): Promise<ModuleVersionRow[]> {
  const rows = await db<ModuleVersionRow>('registry_module_versions').where({
    registry_module_id: moduleId,
    status: 'ok',
  });
  return rows.sort((a, b) => compareSemver(a.version, b.version));
}
