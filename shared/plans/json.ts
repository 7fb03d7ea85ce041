/**
 * Redaction of a JSON plan (`terraform show -json`), which carries sensitive values in plain
 * text next to masks that say where they are. Every value Terraform marks sensitive is removed:
 * null in values and configuration, a stand-in of its kind in changes (see redactPair);
 * the masks stay, so a reader can tell a redacted value from a null one.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` with every place `mask` marks `true` set to null (a mask mirrors the value's shape). */
function masked(value: Json, mask: Json | undefined): Json {
  if (mask === true) return null;
  if (Array.isArray(value) && Array.isArray(mask)) return value.map((v, i) => masked(v, mask[i]));
  if (isObject(value) && isObject(mask))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, mask[k])]));
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

const [SENSITIVE, CHANGED] = ['(sensitive value)', '(sensitive value, changed)'];

/**
 * A value of `value`'s kind standing in for a sensitive one: strings are SENSITIVE (not empty:
 * a renderer may take an empty string for an unset one), numbers 0, booleans false, lists one
 * stand-in of their first element or none, objects `{}` (their keys may be secret too). Null stays null.
 */
function standIn(value: Json): Json {
  if (value === null) return null;
  if (Array.isArray(value)) return value.length ? [standIn(value[0])] : [];
  if (isObject(value)) return {};
  return typeof value === 'string' ? SENSITIVE : typeof value === 'number' ? 0 : false;
}

/** A stand-in of `value`'s kind other than `taken`, for a sensitive value that changed (objects stay `{}`). */
function otherStandIn(value: Json, taken: Json): Json {
  const own = standIn(value);
  if (JSON.stringify(own) !== JSON.stringify(taken)) return own;
  if (Array.isArray(value) && value.length) return [standIn(value[0]), standIn(value[0])];
  return typeof value === 'string' ? CHANGED : typeof value === 'number' ? 1 : typeof value === 'boolean' ? true : own;
}

/**
 * A change's `before` and `after` with what their masks mark replaced by stand-ins of the same
 * kind (see standIn), different ones where the value changed: a renderer sees that a sensitive
 * value is set, removed, unchanged or changed, as Terraform's own plan output says, and nothing
 * of the value itself.
 */
function redactPair(
  before: Json,
  after: Json,
  beforeMask: Json | undefined,
  afterMask: Json | undefined,
): [Json, Json] {
  if (beforeMask === true || afterMask === true) {
    const b = beforeMask === true ? standIn(before) : masked(before, beforeMask);
    if (afterMask !== true) return [b, masked(after, afterMask)];
    const same = beforeMask === true && JSON.stringify(before) === JSON.stringify(after);
    return [b, same || after === null ? standIn(after) : otherStandIn(after, b)];
  }
  // Walked side by side; a side that is null (a resource created or destroyed) walks as empty and stays null.
  const lists = (Array.isArray(before) || before === null) && (Array.isArray(after) || after === null);
  const objects = (isObject(before) || before === null) && (isObject(after) || after === null);
  if (before === null && after === null) return [null, null];
  if (lists) {
    const [bl, al] = [before ?? [], after ?? []] as Json[][];
    const pairs = Array.from({ length: Math.max(bl.length, al.length) }, (_, i) =>
      redactPair(
        bl[i] ?? null,
        al[i] ?? null,
        Array.isArray(beforeMask) ? beforeMask[i] : undefined,
        Array.isArray(afterMask) ? afterMask[i] : undefined,
      ),
    );
    return [before && pairs.slice(0, bl.length).map((p) => p[0]), after && pairs.slice(0, al.length).map((p) => p[1])];
  }
  if (objects) {
    const [bo, ao] = [before ?? {}, after ?? {}] as JsonObject[];
    const [b, a]: [JsonObject, JsonObject] = [{}, {}];
    for (const key of new Set([...Object.keys(bo), ...Object.keys(ao)])) {
      const [rb, ra] = redactPair(
        bo[key] ?? null,
        ao[key] ?? null,
        isObject(beforeMask) ? beforeMask[key] : undefined,
        isObject(afterMask) ? afterMask[key] : undefined,
      );
      if (key in bo) b[key] = rb;
      if (key in ao) a[key] = ra;
    }
    return [before && b, after && a];
  }
  return [masked(before, beforeMask), masked(after, afterMask)];
}

/** A change (resource_changes, resource_drift, output_changes): `before` and `after` redacted by their masks (see redactPair). */
function redactChange(change: Json | undefined): void {
  if (!isObject(change)) return;
  const [before, after] = redactPair(
    change.before ?? null,
    change.after ?? null,
    change.before_sensitive,
    change.after_sensitive,
  );
  if ('before' in change) change.before = before;
  if ('after' in change) change.after = after;
}

/**
 * A module's configuration, its called modules' too: the literal value of an output declared
 * sensitive, and the default of a variable declared sensitive.
 */
function redactConfigModule(mod: Json | undefined): void {
  if (!isObject(mod)) return;
  for (const o of Object.values(isObject(mod.outputs) ? mod.outputs : {})) {
    if (isObject(o) && o.sensitive === true && isObject(o.expression) && 'constant_value' in o.expression)
      o.expression.constant_value = null;
  }
  for (const v of Object.values(isObject(mod.variables) ? mod.variables : {}))
    if (isObject(v) && v.sensitive === true && 'default' in v) v.default = null;
  for (const call of Object.values(isObject(mod.module_calls) ? mod.module_calls : {}))
    if (isObject(call)) redactConfigModule(call.module);
}

/** The names of the root module's variables declared sensitive. */
function sensitiveVariables(plan: JsonObject): Set<string> {
  const config =
    isObject(plan.configuration) && isObject(plan.configuration.root_module) ? plan.configuration.root_module : null;
  const vars = config && isObject(config.variables) ? config.variables : {};
  return new Set(
    Object.entries(vars)
      .filter(([, v]) => isObject(v) && v.sensitive === true)
      .map(([k]) => k),
  );
}

/** A copy of a JSON plan with every sensitive value null. */
export function redactPlanJson(source: unknown): unknown {
  if (!isObject(source)) return source;
  const plan = structuredClone(source) as JsonObject;
  const hidden = sensitiveVariables(plan);
  if (isObject(plan.variables))
    for (const [name, v] of Object.entries(plan.variables)) if (hidden.has(name) && isObject(v)) v.value = null;
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

/** The (provider, kind, type) triples a plan's changes render with. */
function typesInPlan(
  plan: JsonObject,
): { provider: string; kind: 'resource_schemas' | 'data_source_schemas' | 'action_schemas'; type: string }[] {
  const found: ReturnType<typeof typesInPlan> = [];
  const changes = [plan.resource_changes, plan.resource_drift].flatMap((list) => (Array.isArray(list) ? list : []));
  for (const d of Array.isArray(plan.deferred_changes) ? plan.deferred_changes : [])
    if (isObject(d)) changes.push(d.resource_change);
  for (const rc of changes) {
    if (!isObject(rc) || typeof rc.provider_name !== 'string' || typeof rc.type !== 'string') continue;
    found.push({
      provider: rc.provider_name,
      kind: rc.mode === 'data' ? 'data_source_schemas' : 'resource_schemas',
      type: rc.type,
    });
  }
  for (const ai of Array.isArray(plan.action_invocations) ? plan.action_invocations : []) {
    if (isObject(ai) && typeof ai.provider_name === 'string' && typeof ai.type === 'string')
      found.push({ provider: ai.provider_name, kind: 'action_schemas', type: ai.type });
  }
  return found;
}

/**
 * Of `terraform providers schema -json`, the schemas of the resource, data source and action
 * types a JSON plan changes: what rendering the plan needs (a provider such as AWS has thousands
 * of types, some megabytes of schema).
 */
export function schemasOfChanges(plan: unknown, schemas: unknown): JsonObject {
  const all = isObject(schemas) && isObject(schemas.provider_schemas) ? schemas.provider_schemas : {};
  const kept: JsonObject = {};
  for (const { provider, kind, type } of isObject(plan) ? typesInPlan(plan) : []) {
    const source = all[provider];
    const schema = isObject(source) && isObject(source[kind]) ? source[kind][type] : undefined;
    if (schema === undefined) continue;
    const entry = (kept[provider] ??= {}) as JsonObject;
    ((entry[kind] ??= {}) as JsonObject)[type] = schema;
  }
  return {
    format_version: isObject(schemas) && typeof schemas.format_version === 'string' ? schemas.format_version : '1.0',
    provider_schemas: kept,
  };
}

/**
 * Empty schemas (no attributes, no blocks) for the types a plan changes: with them the CLI renders
 * each change's heading, action and the counts, without attributes, where a missing schema would
 * make it fail.
 */
function emptySchemas(plan: JsonObject): JsonObject {
  const kept: JsonObject = {};
  for (const { provider, kind, type } of typesInPlan(plan)) {
    const entry = (kept[provider] ??= {}) as JsonObject;
    ((entry[kind] ??= {}) as JsonObject)[type] = { version: 0, block: {} };
  }
  return kept;
}

/**
 * The redacted plan as the CLI reads it for a structured run output (its `jsonformat.Plan`): the
 * redacted JSON plan, whose fields it shares, plus the format versions and the providers' schemas
 * of the changed types, as the plan recorded them (plans of workspaces with structured run
 * output), else empty ones (see emptySchemas; a workspace that turned the setting on while the
 * plan ran). Fields the CLI does not know are ignored by it.
 */
export function structuredPlan(plan: unknown, schemas: unknown): unknown {
  const redacted = redactPlanJson(plan);
  if (!isObject(redacted)) return redacted;
  const recorded = isObject(schemas) && isObject(schemas.provider_schemas);
  return {
    ...redacted,
    plan_format_version: redacted.format_version ?? null,
    provider_format_version: recorded ? (schemas.format_version ?? '1.0') : '1.0',
    provider_schemas: recorded ? schemas.provider_schemas : emptySchemas(redacted),
  };
}

/** Counts of a JSON plan's resource changes, as TFE reports them (a replace adds and destroys). */
export function countChanges(plan: { resource_changes?: { change?: { actions?: string[] } }[] }) {
  const counts = { resource_additions: 0, resource_changes: 0, resource_destructions: 0 };
  for (const rc of plan.resource_changes ?? []) {
    const actions = rc.change?.actions ?? [];
    if (actions.includes('create')) counts.resource_additions++;
    if (actions.includes('delete')) counts.resource_destructions++;
    if (actions.includes('update')) counts.resource_changes++;
  }
  return counts;
}
