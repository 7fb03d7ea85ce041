import type { RunInputDocument } from './types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A resource of a `planned_values` module, as the tfstate/v2 representation describes it. */
function stateResource(r: Obj, moduleAddress: string): Obj {
  return {
    address: text(r.address),
    module_address: moduleAddress,
    mode: text(r.mode),
    type: text(r.type),
    name: text(r.name),
    index: r.index ?? null,
    provider_name: text(r.provider_name),
    values: r.values ?? {},
    depends_on: list(r.depends_on),
    tainted: r.tainted === true,
    deposed_key: text(r.deposed_key),
  };
}

/** Every resource of a module and its child modules, keyed by address (and deposed key). */
function stateResources(module: Obj, into: Obj = {}): Obj {
  const moduleAddress = text(module.address);
  for (const r of list(module.resources).map(obj)) {
    const key = r.deposed_key ? `${text(r.address)}:${text(r.deposed_key)}` : text(r.address);
    into[key] = stateResource(r, moduleAddress);
  }
  for (const child of list(module.child_modules)) stateResources(obj(child), into);
  return into;
}

const mapEntries = (source: Obj, fn: (value: Obj, key: string) => unknown): Obj =>
  Object.fromEntries(Object.entries(source).map(([k, v]) => [k, fn(obj(v), k)]));

/**
 * The `tfplan/v2` import's data built from `terraform show -json` of a plan: terraform_version,
 * variables and output_changes keyed by name, planned_values (outputs, resources keyed by
 * address), resource_changes keyed by address (`address:deposed` for deposed objects), and the
 * whole document as `raw`.
 */
export function tfplanV2Data(plan: unknown): Obj {
  const p = obj(plan);
  const planned = obj(p.planned_values);
  const resourceChanges: Obj = {};
  for (const rc of list(p.resource_changes).map(obj)) {
    const deposed = text(rc.deposed);
    resourceChanges[deposed ? `${text(rc.address)}:${deposed}` : text(rc.address)] = {
      address: text(rc.address),
      module_address: text(rc.module_address),
      mode: text(rc.mode),
      type: text(rc.type),
      name: text(rc.name),
      index: rc.index ?? null,
      provider_name: text(rc.provider_name),
      deposed,
      change: rc.change ?? {},
    };
  }
  return {
    terraform_version: text(p.terraform_version),
    variables: mapEntries(obj(p.variables), (v, name) => ({ name, value: v.value ?? null })),
    planned_values: {
      outputs: mapEntries(obj(planned.outputs), (o, name) => ({
        name,
        sensitive: o.sensitive === true,
        value: o.value ?? null,
      })),
      resources: stateResources(obj(planned.root_module)),
    },
    resource_changes: resourceChanges,
    output_changes: mapEntries(obj(p.output_changes), (change, name) => ({ name, change })),
    raw: p,
  };
}

/** The `tfrun` import's data: the run document's keys at the top level. */
export const tfrunData = (run: RunInputDocument): Obj => ({ ...run });

/**
 * A Sentinel module assigning each top-level key. Compact JSON is a Sentinel literal as it is
 * (maps with quoted keys, lists, strings, numbers, booleans, null); it stays on one line because
 * Sentinel, like Go, ends a statement at a line break after a value.
 */
export function sentinelModule(data: Obj): string {
  return Object.entries(data)
    .map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${name} cannot be a Sentinel identifier`);
      return `${name} = ${JSON.stringify(value ?? null)}\n`;
    })
    .join('\n');
}

/** The Sentinel CLI configuration that serves both mocks under their import names. */
export const SENTINEL_CONFIG = `mock "tfplan/v2" {
  module {
    source = "mock-tfplan-v2.sentinel"
  }
}

mock "tfrun" {
  module {
    source = "mock-tfrun.sentinel"
  }
}
`;
