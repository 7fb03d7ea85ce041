/**
 * Redaction of a JSON plan (`terraform show -json`), which carries sensitive values in plain
 * text next to masks that say where they are. Every value Terraform marks sensitive becomes
 * null; the masks stay, so a reader can tell a redacted value from a null one.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` with every place `mask` marks `true` set to null (a mask mirrors the value's shape). */
function masked(value: Json, mask: Json | undefined): Json {
  if (mask === true) return null;
  if (Array.isArray(value) && Array.isArray(mask)) return value.map((v, i) => masked(v, mask[i]));
  if (isObject(value) && isObject(mask)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, mask[k])]));
  return value;
}

/** A module's resource values (planned_values, prior_state), its child modules' too. */
function redactModule(mod: Json | undefined): void {
  if (!isObject(mod)) return;
  for (const r of Array.isArray(mod.resources) ? mod.resources : []) {
    if (isObject(r) && 'values' in r) r.values = masked(r.values, r.sensitive_values);
  }
  for (const child of Array.isArray(mod.child_modules) ? mod.child_modules : []) redactModule(child);
}

/** Outputs of planned_values or prior_state: `{ name: { sensitive, value } }`. */
function redactOutputs(outputs: Json | undefined): void {
  if (!isObject(outputs)) return;
  for (const o of Object.values(outputs)) if (isObject(o) && o.sensitive === true) o.value = null;
}

/** A change (resource_changes, resource_drift, output_changes): `before`/`after` by their masks. */
function redactChange(change: Json | undefined): void {
  if (!isObject(change)) return;
  if ('before' in change) change.before = masked(change.before, change.before_sensitive);
  if ('after' in change) change.after = masked(change.after, change.after_sensitive);
}

/**
 * A module's configuration, its called modules' too: the literal value of an output declared
 * sensitive, and the default of a variable declared sensitive.
 */
function redactConfigModule(mod: Json | undefined): void {
  if (!isObject(mod)) return;
  for (const o of Object.values(isObject(mod.outputs) ? mod.outputs : {})) {
    if (isObject(o) && o.sensitive === true && isObject(o.expression) && 'constant_value' in o.expression) o.expression.constant_value = null;
  }
  for (const v of Object.values(isObject(mod.variables) ? mod.variables : {})) if (isObject(v) && v.sensitive === true && 'default' in v) v.default = null;
  for (const call of Object.values(isObject(mod.module_calls) ? mod.module_calls : {})) if (isObject(call)) redactConfigModule(call.module);
}

/** The names of the root module's variables declared sensitive. */
function sensitiveVariables(plan: JsonObject): Set<string> {
  const config = isObject(plan.configuration) && isObject(plan.configuration.root_module) ? plan.configuration.root_module : null;
  const vars = config && isObject(config.variables) ? config.variables : {};
  return new Set(Object.entries(vars).filter(([, v]) => isObject(v) && v.sensitive === true).map(([k]) => k));
}

/** A copy of a JSON plan with every sensitive value null. */
export function redactPlanJson(source: unknown): unknown {
  if (!isObject(source)) return source;
  const plan = structuredClone(source) as JsonObject;
  const hidden = sensitiveVariables(plan);
  if (isObject(plan.variables)) for (const [name, v] of Object.entries(plan.variables)) if (hidden.has(name) && isObject(v)) v.value = null;
  for (const values of [plan.planned_values, isObject(plan.prior_state) ? plan.prior_state.values : undefined]) {
    if (!isObject(values)) continue;
    redactOutputs(values.outputs);
    redactModule(values.root_module);
  }
  for (const list of [plan.resource_changes, plan.resource_drift]) {
    for (const rc of Array.isArray(list) ? list : []) if (isObject(rc)) redactChange(rc.change);
  }
  if (isObject(plan.output_changes)) for (const change of Object.values(plan.output_changes)) redactChange(change);
  if (isObject(plan.configuration)) redactConfigModule(plan.configuration.root_module);
  return plan;
}
