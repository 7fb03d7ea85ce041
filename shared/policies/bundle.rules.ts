import { isLevelOf, MAX_POLICY_CODE_BYTES, type EnforcementLevel, type PolicyKind } from './rules.js';

/*
 * Policy set version bundles: what an uploaded tar.gz of policies must hold, read into the
 * policies a set evaluates. Pure: the archive's files come in as text.
 *
 * Sentinel: `sentinel.hcl` names each policy in a block
 *   policy "name" { source = "./name.sentinel"  enforcement_level = "hard-mandatory" }
 * OPA: `policies.hcl` names each policy with its query; the Rego module is the file whose
 * `package` the query reads from:
 *   policy "name" { query = "data.terraform.policies.name.deny"  enforcement_level = "mandatory" }
 * Only `policy` blocks with quoted string attributes are read (other blocks, such as `module` or
 * `mock`, are ignored); the level defaults to `advisory`.
 */

/**
 * Limits of a bundle: its policies are stored with the version and read whole, so a bundle is
 * held to the size of one policy's code, compressed and unpacked, and to 1,000 files. Each policy
 * stores its own copy of its code (several blocks may name one file), so the code of all its
 * policies together is held to the same size, and a bundle names at most 100 policies.
 */
export const MAX_BUNDLE_BYTES = MAX_POLICY_CODE_BYTES;
export const MAX_BUNDLE_ENTRIES = 1000;
export const MAX_BUNDLE_POLICIES = 100;

/** A policy a bundle brings, with its code. */
export interface BundlePolicy {
  name: string;
  kind: PolicyKind;
  enforcement_level: EnforcementLevel;
  query: string | null;
  code: string;
  description: string | null;
}

export type BundleResult = { ok: true; policies: BundlePolicy[] } | { ok: false; error: string; message: string };

const CONFIG_FILE: Record<PolicyKind, string> = { sentinel: 'sentinel.hcl', opa: 'policies.hcl' };

/** The `policy "name" { key = "value" }` blocks of an HCL file (comments removed). */
export function policyBlocks(hcl: string): { name: string; attributes: Record<string, string> }[] {
  const text = hcl.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*(#|\/\/).*$/gm, '');
  const blocks: { name: string; attributes: Record<string, string> }[] = [];
  for (const m of text.matchAll(/(^|\n)\s*policy\s+"([^"]+)"\s*\{([^}]*)\}/g)) {
    const attributes: Record<string, string> = {};
    for (const a of m[3].matchAll(/([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"/g)) attributes[a[1]] = a[2];
    blocks.push({ name: m[2], attributes });
  }
  return blocks;
}

const normalise = (path: string) => path.replace(/^\.\//, '');
const failure = (message: string): BundleResult => ({ ok: false, error: 'invalid policy set version', message });

/** The Rego module a query reads from: the file whose package is the longest prefix of the query's path. */
function moduleFor(query: string, files: Map<string, string>): string | undefined {
  let best: { code: string; length: number } | undefined;
  for (const [path, code] of files) {
    if (!path.endsWith('.rego')) continue;
    const pkg = /^\s*package\s+([\w.]+)/m.exec(code)?.[1];
    if (pkg && (query === `data.${pkg}` || query.startsWith(`data.${pkg}.`)) && pkg.length > (best?.length ?? -1))
      best = { code, length: pkg.length };
  }
  return best?.code;
}

/** Reads a bundle of `kind` from its files (path relative to the archive's root -> text). */
export function readBundle(kind: PolicyKind, files: Map<string, string>): BundleResult {
  const byPath = new Map([...files].map(([p, t]) => [normalise(p), t]));
  const config = byPath.get(CONFIG_FILE[kind]);
  if (config === undefined)
    return failure(
      `the archive has no ${CONFIG_FILE[kind]} at its root (a ${kind} policy set needs one naming its policies)`,
    );
  const blocks = policyBlocks(config);
  if (!blocks.length) return failure(`${CONFIG_FILE[kind]} names no policy`);
  if (blocks.length > MAX_BUNDLE_POLICIES)
    return failure(
      `${CONFIG_FILE[kind]} names ${blocks.length} policies; a bundle may name at most ${MAX_BUNDLE_POLICIES}`,
    );
  const policies: BundlePolicy[] = [];
  let codeBytes = 0;
  for (const { name, attributes } of blocks) {
    if (!/^[A-Za-z0-9_-]{1,90}$/.test(name))
      return failure(`policy "${name}": the name may have only letters, digits, - and _`);
    if (policies.some((p) => p.name === name)) return failure(`policy "${name}" is named twice`);
    const level = attributes.enforcement_level ?? 'advisory';
    if (!isLevelOf(kind, level))
      return failure(`policy "${name}": enforcement_level "${level}" is not a ${kind} level`);
    if (kind === 'sentinel') {
      const source = attributes.source ? normalise(attributes.source) : `${name}.sentinel`;
      const code = byPath.get(source);
      if (code === undefined) return failure(`policy "${name}": its source ${source} is not in the archive`);
      policies.push({ name, kind, enforcement_level: level, query: null, code, description: null });
    } else {
      const query = attributes.query;
      if (!query) return failure(`policy "${name}": query is required for OPA policies`);
      const code = moduleFor(query, byPath);
      if (code === undefined)
        return failure(`policy "${name}": no .rego file in the archive declares the package its query ${query} reads`);
      policies.push({ name, kind, enforcement_level: level, query, code, description: attributes.description ?? null });
    }
  }
  for (const p of policies) codeBytes += Buffer.byteLength(p.code, 'utf8');
  if (codeBytes > MAX_BUNDLE_BYTES)
    return failure(
      `the code of the bundle's policies comes to ${codeBytes} bytes (each policy counts its own source file); at most ${MAX_BUNDLE_BYTES} bytes are allowed`,
    );
  return { ok: true, policies };
}
