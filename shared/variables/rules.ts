import type { Field } from '../platform/errors.js';
import type { Problem } from '../policies/rules.js';

/*
 * Rules of workspace and variable set variables that need nothing but the values: key syntax per
 * category, the sensitive flag's one-way change, and how a variable's value is written for
 * Terraform. Precedence among the places a run's variables come from is resolveVariables.
 */

export const VARIABLE_CATEGORIES = ['terraform', 'env'] as const;
export type VariableCategory = (typeof VARIABLE_CATEGORIES)[number];

/**
 * A Terraform variable's key: letters, digits, underscores and dashes, not starting with a dash.
 * Like TFE it may start with a digit (clients use random UUIDs as keys), although no configuration
 * can declare such a name; a run still passes it on (see isTerraformIdentifier).
 */
const TERRAFORM_KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
/** An environment variable's key: letters, digits and underscores; the sandbox sets it without a shell, so a leading digit is fine. */
const ENV_KEY = /^[A-Za-z0-9_]+$/;
/** A name Terraform can declare and a .tfvars file can assign: it starts with a letter or an underscore. */
const TERRAFORM_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Whether a Terraform variable's key is an identifier (written to a .tfvars file) or not (written as JSON, which takes any key). */
export const isTerraformIdentifier = (key: string): boolean => TERRAFORM_IDENTIFIER.test(key);
export const MAX_KEY_LENGTH = 128;

/**
 * Environment variables the service sets for every phase; a variable of these names is refused,
 * since the sandbox's own values must win (PATH, HOME, the operator's CLI configuration, and the
 * switches that keep Terraform unattended).
 */
export const RESERVED_ENV_KEYS = [
  'PATH',
  'HOME',
  'TF_CLI_CONFIG_FILE',
  'TF_IN_AUTOMATION',
  'TF_INPUT',
  'CHECKPOINT_DISABLE',
] as const;

const KEY: Field = { attribute: 'key' };

/** A blank or too long key, or one `pattern` refuses (`rule` says why). */
function keyShapeProblems(key: string, pattern: RegExp, rule: string): Problem[] {
  if (!key.trim()) return [{ detail: "key can't be blank", field: KEY }];
  if (key.length > MAX_KEY_LENGTH)
    return [{ detail: `key is too long (at most ${MAX_KEY_LENGTH} characters)`, field: KEY }];
  if (!pattern.test(key)) return [{ detail: `key is invalid: ${rule}`, field: KEY }];
  return [];
}

/** Problems with a policy set parameter's key: the rule of a Terraform variable's key (clients use random UUIDs). */
export const parameterKeyProblems = (key: string): Problem[] =>
  keyShapeProblems(
    key,
    TERRAFORM_KEY,
    'a parameter name contains only letters, digits, underscores and dashes, and does not start with a dash',
  );

/** Problems with a key of a category (none when valid). */
export function keyProblems(key: string, category: VariableCategory): Problem[] {
  if (category === 'terraform')
    return keyShapeProblems(
      key,
      TERRAFORM_KEY,
      'a Terraform variable name contains only letters, digits, underscores and dashes, and does not start with a dash',
    );
  const shape = keyShapeProblems(
    key,
    ENV_KEY,
    'an environment variable name contains only letters, digits and underscores',
  );
  if (shape.length) return shape;
  if ((RESERVED_ENV_KEYS as readonly string[]).includes(key)) {
    return [{ detail: `key ${key} is set by the service for every run and cannot be a variable`, field: KEY }];
  }
  return [];
}

/** Refuses turning a sensitive variable back into a plain one. */
export function sensitiveProblems(wasSensitive: boolean, sensitive: boolean | undefined): Problem[] {
  if (wasSensitive && sensitive === false) {
    return [
      {
        detail: 'a sensitive variable cannot be made non-sensitive; delete it and create it again',
        field: { attribute: 'sensitive' },
      },
    ];
  }
  return [];
}

/** HCL escapes for a quoted string: its escapes, and `${`/`%{`, which would start a template. */
export function hclString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{')}"`;
}

/** Where a variable a run receives comes from, in TFE's order of precedence (highest first). */
export type VariableSource = 'priority-varset' | 'run' | 'workspace' | 'varset';

export interface CandidateVariable {
  key: string;
  category: VariableCategory;
  /** Terraform variables: an HCL expression (already quoted when not HCL). Environment variables: the value. */
  value: string;
  source: VariableSource;
  /** For variable sets: whether the set is global, and its name (ties are broken by them). */
  global?: boolean;
  /** For variable sets: how the set reaches the workspace (applied to it, to its project, or global). */
  reach?: SetReach;
  setName?: string;
}

export type SetReach = 'workspace' | 'project' | 'global';

const SOURCE_RANK: Record<VariableSource, number> = { 'priority-varset': 0, run: 1, workspace: 2, varset: 3 };
const REACH_RANK: Record<SetReach, number> = { workspace: 0, project: 1, global: 2 };
const reachRank = (c: CandidateVariable): number => REACH_RANK[c.reach ?? (c.global ? 'global' : 'workspace')];

/**
 * The variable of each (category, key) a run receives, from every candidate: a priority variable
 * set beats the run's own variables, which beat the workspace's, which beat ordinary variable
 * sets. Between two sets of the same kind, one applied to the workspace beats one applied to its
 * project, which beats a global one, and then the set whose name sorts first wins (TFE's "lexical precedence").
 */
export function resolveVariables<C extends CandidateVariable>(candidates: C[]): C[] {
  const byName = (a?: string, b?: string) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  const ordered = [...candidates].sort(
    (a, b) =>
      SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || reachRank(a) - reachRank(b) || byName(a.setName, b.setName),
  );
  const won = new Map<string, C>();
  for (const c of ordered) {
    const id = `${c.category}\u0000${c.key}`;
    if (!won.has(id)) won.set(id, c);
  }
  return [...won.values()].sort((a, b) => byName(a.category, b.category) || byName(a.key, b.key));
}
