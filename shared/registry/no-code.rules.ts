/** No-code modules: which version a workspace is provisioned at, what its variables may be, and the configuration it runs (pure). */
import type { ModuleDetails } from './module-config.rules.js';
import { latestVersion } from './machine.js';

/** The pin that follows the module's latest published version (as no pin does). */
export const LATEST_PIN = 'latest';

/** The values one variable may take when a workspace is provisioned. */
export interface VariableOption {
  variable_name: string;
  variable_type: string;
  options: string[];
}

/** Whether a pin names a version of its own (not the latest). */
export const pinsVersion = (pin: string | null): boolean => pin !== null && pin !== '' && pin !== LATEST_PIN;

/**
 * The version a workspace is provisioned at: the pinned one when it is published, else the latest
 * published; null when there is none. `published`: the module's versions whose archive was read.
 */
export function provisionedVersion(pin: string | null, published: readonly string[]): string | null {
  if (pin !== null && pinsVersion(pin)) return published.includes(pin) ? pin : null;
  return latestVersion(published);
}

/** A workspace's Terraform variable as provisioning checks it. */
export interface GivenVariable {
  key: string;
  value: string;
  category: 'terraform' | 'env';
}

/**
 * Why the variables given for a new workspace do not fit the module (null when they do): a
 * required input of the module without a Terraform variable, or a value outside its options.
 */
export function provisioningProblem(
  inputs: ModuleDetails['inputs'],
  options: readonly VariableOption[],
  given: readonly GivenVariable[],
): string | null {
  const terraform = new Map(given.filter((v) => v.category === 'terraform').map((v) => [v.key, v.value]));
  const missing = inputs.filter((i) => i.required && !terraform.has(i.name)).map((i) => i.name);
  if (missing.length)
    return `the module requires ${missing.length === 1 ? 'a value for the variable' : 'values for the variables'} ${missing.join(', ')}`;
  for (const o of options) {
    const value = terraform.get(o.variable_name);
    if (value !== undefined && o.options.length && !o.options.includes(value)) {
      return `${o.variable_name} must be one of ${o.options.map((x) => JSON.stringify(x)).join(', ')}`;
    }
  }
  return null;
}

/** A label a configuration can refer to (`module.<label>`): the module's name, or `this`. */
const labelOf = (name: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : 'this');

/**
 * The root configuration a no-code workspace runs: the module from the registry at `version`, each
 * of its inputs passed from a root variable declared as the module declares it (type, default,
 * sensitivity: the workspace's variables set them), and each of its outputs passed on.
 */
export function noCodeConfiguration(
  module: { source: string; name: string; version: string },
  root: Pick<ModuleDetails, 'inputs' | 'outputs'>,
): string {
  const label = labelOf(module.name);
  const lines: string[] = [];
  for (const i of root.inputs) {
    const body = [
      i.type ? `  type = ${i.type}` : null,
      i.required ? null : `  default = ${i.default}`,
      i.sensitive ? '  sensitive = true' : null,
    ].filter((l): l is string => l !== null);
    lines.push(`variable ${JSON.stringify(i.name)} {`, ...body, '}', '');
  }
  lines.push(
    `module ${JSON.stringify(label)} {`,
    `  source  = ${JSON.stringify(module.source)}`,
    `  version = ${JSON.stringify(module.version)}`,
  );
  for (const i of root.inputs) lines.push(`  ${i.name} = var.${i.name}`);
  lines.push('}', '');
  for (const o of root.outputs) {
    lines.push(
      `output ${JSON.stringify(o.name)} {`,
      `  value = module.${label}.${o.name}`,
      ...(o.sensitive ? ['  sensitive = true'] : []),
      '}',
      '',
    );
  }
  return lines.join('\n');
}
