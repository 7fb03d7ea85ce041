import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import {
  hclString,
  keyProblems,
  resolveVariables,
  sensitiveProblems,
  type CandidateVariable,
  type VariableCategory,
} from './rules.js';
import {
  deleteVariable,
  findOwnedVariable,
  insertVariable,
  keyTaken,
  openValue,
  storedValue,
  updateVariable,
  variablesReaching,
  type ResolvableVariable,
  type WorkspaceRef,
  type VariableOwner,
  type VariableRow,
} from './repo.js';

/*
 * Variables of workspaces and variable sets: creating, changing and deleting them (the rules are
 * the same for both owners), and the variables a run's phase receives.
 */

export interface VariableInput {
  key?: string;
  value?: string | null;
  description?: string | null;
  category?: VariableCategory;
  hcl?: boolean;
  sensitive?: boolean;
}

const taken = () => new Unprocessable('key has already been taken', { attribute: 'key' });

/** A unique-index refusal (another request took the key between the check and the write) is the same 422. */
const keyRace = (err: unknown): never => {
  if (isUniqueViolation(err)) throw taken();
  throw err;
};

export async function createVariable(
  rt: Pick<Runtime, 'db' | 'config'>,
  owner: VariableOwner,
  a: VariableInput & { key: string; category: VariableCategory },
): Promise<VariableRow> {
  const problems = keyProblems(a.key, a.category);
  if (problems.length) throw Unprocessable.many(problems);
  if (await keyTaken(rt.db, owner, a.category, a.key)) throw taken();
  return insertVariable(rt.db, rt.config.encryptionKey, owner, {
    key: a.key,
    value: a.value ?? '',
    description: a.description ?? null,
    category: a.category,
    hcl: a.hcl ?? false,
    sensitive: a.sensitive ?? false,
  }).catch(keyRace);
}

/**
 * Changes what the request names; omitted attributes keep their value. A sensitive variable stays
 * sensitive; making one sensitive seals its current value.
 */
export async function changeVariable(
  rt: Pick<Runtime, 'db' | 'config'>,
  owner: VariableOwner,
  id: string,
  a: VariableInput,
): Promise<VariableRow> {
  return rt.db.transaction(async (tx) => {
    const row = await findOwnedVariable(tx, owner, id).forUpdate();
    if (!row) throw new NotFound('variable not found');
    const key = a.key ?? row.key;
    const category = a.category ?? row.category;
    const sensitive = row.sensitive || (a.sensitive ?? false);
    const problems = [
      ...sensitiveProblems(row.sensitive, a.sensitive),
      ...(key !== row.key || category !== row.category ? keyProblems(key, category) : []),
    ];
    if (problems.length) throw Unprocessable.many(problems);
    if ((key !== row.key || category !== row.category) && (await keyTaken(tx, owner, category, key, row.id)))
      throw taken();
    const value =
      a.value !== undefined
        ? (a.value ?? '')
        : sensitive !== row.sensitive
          ? openValue(rt.config.encryptionKey, row)
          : undefined;
    const changes: Parameters<typeof updateVariable>[2] = {
      key,
      category,
      sensitive,
      ...(a.description !== undefined ? { description: a.description } : {}),
      ...(a.hcl !== undefined ? { hcl: a.hcl } : {}),
      ...(value !== undefined ? storedValue(rt.config.encryptionKey, value, sensitive) : {}),
    };
    return updateVariable(tx, row.id, changes).catch(keyRace);
  });
}

export async function removeVariable(db: Db, owner: VariableOwner, id: string): Promise<void> {
  if (!(await deleteVariable(db, owner, id))) throw new NotFound('variable not found');
}

/** What a run's phase receives: Terraform variables as HCL expressions, environment variables, and the names of both for its log. */
export interface EffectiveVariables {
  terraform: { key: string; value: string }[];
  env: Record<string, string>;
  /** Every variable given, `category:key` with where it came from (never a value). */
  names: { key: string; category: VariableCategory; source: CandidateVariable['source'] }[];
  /** The sensitive variables that would have been given but were withheld (see resolveEffectiveVariables' `withholdSensitive`). */
  withheld: { key: string; category: VariableCategory }[];
}

/**
 * The variables a run's phase receives: its workspace's, those of the variable sets that reach the
 * workspace (applied to it, or global) and the run's own (HCL literals from the CLI's -var),
 * resolved by precedence (see resolveVariables). Sensitive values are opened here, in the worker,
 * and go nowhere but into the phase's directory and environment.
 */
export async function effectiveVariables(
  db: Db,
  encryptionKey: Buffer,
  workspace: WorkspaceRef,
  runVariables: { key: string; value: string }[],
): Promise<EffectiveVariables> {
  return resolveEffectiveVariables(encryptionKey, await variablesReaching(db, workspace), runVariables);
}

/** What decides whether a reaching variable wins (see resolveVariables), with the value it would give. */
const candidateOf = (r: ResolvableVariable, value: string): CandidateVariable => ({
  key: r.key,
  category: r.category,
  value,
  source: r.variable_set_id ? (r.set_priority ? 'priority-varset' : 'varset') : 'workspace',
  ...(r.variable_set_id
    ? {
        global: r.set_global ?? false,
        reach: r.set_reach ?? (r.set_global ? 'global' : 'workspace'),
        setName: r.set_name ?? '',
      }
    : {}),
});

/**
 * The variables in effect in a workspace (GET /workspaces/:id/all-vars): of its own variables and
 * those of the variable sets that reach it, the one of each category and key that a run would
 * receive, without the run's own. Values stay as stored: nothing is opened (sensitive ones are
 * shown as null anyway).
 */
export async function variablesInEffect(db: Db, workspaceId: string): Promise<Omit<VariableRow, 'value_sealed'>[]> {
  const rows = await variablesReaching(db, { workspaceId });
  return resolveVariables(rows.map((row) => ({ ...candidateOf(row, ''), row }))).map(({ row }) => {
    const {
      value_sealed: _sealed,
      set_name: _name,
      set_global: _global,
      set_priority: _priority,
      set_reach: _reach,
      ...view
    } = row;
    return view;
  });
}

/**
 * effectiveVariables for rows already read (see variablesReaching). With `withholdSensitive`, a
 * variable whose winning value is sensitive is not given at all (its value is never opened): a
 * Terraform variable then takes its configuration's default, or the plan fails for want of one,
 * as when it was never set; an environment variable is not set. A value it overrides is not given
 * instead.
 */
export function resolveEffectiveVariables(
  encryptionKey: Buffer,
  rows: readonly ResolvableVariable[],
  runVariables: { key: string; value: string }[],
  opts: { withholdSensitive?: boolean } = {},
): EffectiveVariables {
  const withhold = opts.withholdSensitive === true;
  const candidates: (CandidateVariable & { sensitive: boolean })[] = rows.map((r) => {
    const sensitive = r.value_sealed !== null;
    const plain = sensitive && withhold ? '' : openValue(encryptionKey, r);
    return { ...candidateOf(r, r.category === 'terraform' && !r.hcl ? hclString(plain) : plain), sensitive };
  });
  for (const v of runVariables)
    candidates.push({ key: v.key, category: 'terraform', value: v.value, source: 'run', sensitive: false });
  const won = resolveVariables(candidates);
  const given = withhold ? won.filter((v) => !v.sensitive) : won;
  return {
    terraform: given.filter((v) => v.category === 'terraform').map((v) => ({ key: v.key, value: v.value })),
    env: Object.fromEntries(given.filter((v) => v.category === 'env').map((v) => [v.key, v.value])),
    names: given.map((v) => ({ key: v.key, category: v.category, source: v.source })),
    withheld: withhold ? won.filter((v) => v.sensitive).map((v) => ({ key: v.key, category: v.category })) : [],
  };
}

const SOURCE_LABEL: Record<CandidateVariable['source'], string> = {
  'priority-varset': 'priority variable set',
  run: 'run',
  workspace: 'workspace',
  varset: 'variable set',
};

/** The lines a phase's log starts with: each variable given, by category, with where it came from; empty when none. */
export function variablesLogLines(v: Pick<EffectiveVariables, 'names'>): string {
  if (!v.names.length) return '';
  const line = (category: VariableCategory, title: string) => {
    const of = v.names.filter((n) => n.category === category);
    return of.length ? `  ${title}: ${of.map((n) => `${n.key} (${SOURCE_LABEL[n.source]})`).join(', ')}\n` : '';
  };
  return `Variables (names only):\n${line('terraform', 'Terraform variables')}${line('env', 'Environment variables')}\n`;
}
