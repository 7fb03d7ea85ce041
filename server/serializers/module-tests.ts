import { iso, one, type Resource } from '../jsonapi.js';
import type { RegistryModuleRow, TestRunRow, TestVariableRow } from '../../shared/module-tests/repo.js';
export { registryModuleResource } from './registry-modules.js';

/** The module test path prefix: organization, registry, namespace, name, provider. */
export const modulePath = (m: RegistryModuleRow): string =>
  `/api/v2/organizations/${m.organization_name}/tests/registry-modules/${m.registry_name}/${m.namespace}/${m.name}/${m.provider}`;

/** A test variable; the value of a sensitive one is never shown again. No `configurable`: go-tfe types it as a workspace. */
export function testVariableResource(v: TestVariableRow, value: string, module: RegistryModuleRow): Resource {
  return {
    type: 'vars',
    id: v.id,
    attributes: {
      key: v.key,
      value: v.sensitive ? null : value,
      description: v.description,
      category: v.category,
      hcl: v.hcl,
      sensitive: v.sensitive,
      'version-id': `${v.id}-${v.updated_at.getTime()}`,
      'created-at': iso(v.created_at),
    },
    links: { self: `${modulePath(module)}/vars/${v.id}` },
  };
}

export function testRunResource(run: TestRunRow, module: RegistryModuleRow, logReadUrl: string): Resource {
  return {
    type: 'test-runs',
    id: run.id,
    attributes: {
      status: run.status,
      'test-status': run.test_status,
      'tests-passed': run.tests_passed,
      'tests-failed': run.tests_failed,
      'tests-errored': run.tests_errored,
      'tests-skipped': run.tests_skipped,
      'log-read-url': logReadUrl,
      'status-timestamps': run.status_timestamps,
      source: run.source,
      message: run.message,
      verbose: run.verbose,
      'test-directory': run.test_directory,
      filters: run.filters,
      // Keys only: values may be secrets and are never shown again.
      variables: run.variable_keys.map((key) => ({ key })),
      parallelism: run.parallelism,
      'test-configurable-type': 'RegistryModule',
      'test-configurable-id': module.id,
      'module-version-id': run.module_version_id,
      'created-at': iso(run.created_at),
      'updated-at': iso(run.updated_at),
    },
    relationships: {
      'configuration-version': one('configuration-versions', run.configuration_version_id),
      'registry-module': one('registry-modules', module.id),
      'created-by': one('users', run.created_by_id),
    },
    links: { self: `${modulePath(module)}/test-runs/${run.id}` },
  };
}
