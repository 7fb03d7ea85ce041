import { iso, many, one, type Resource } from '../jsonapi.js';
import type { NoCodeModuleRow, VariableOptionRow } from '../../shared/registry/no-code.repo.js';

/** A no-code module with the ids of its variable options (their documents: variableOptionResource). */
export function noCodeModuleResource(m: NoCodeModuleRow, options: VariableOptionRow[]): Resource {
  return {
    type: 'no-code-modules',
    id: m.id,
    attributes: {
      enabled: m.enabled,
      'version-pin': m.version_pin,
      'created-at': iso(m.created_at),
      'updated-at': iso(m.updated_at),
    },
    relationships: {
      organization: one('organizations', m.organization_name),
      'registry-module': one('registry-modules', m.registry_module_id),
      'variable-options': many(
        'variable-options',
        options.map((o) => o.id),
      ),
    },
    links: { self: `/api/v2/no-code-modules/${m.id}` },
  };
}

/** The values one variable of a no-code module may take. */
export const variableOptionResource = (o: VariableOptionRow): Resource => ({
  type: 'variable-options',
  id: o.id,
  attributes: { 'variable-name': o.variable_name, 'variable-type': o.variable_type, options: o.options },
  relationships: { 'no-code-allowed-module': one('no-code-modules', o.no_code_module_id) },
});
