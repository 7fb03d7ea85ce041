import type { Problem } from './rules.js';

/*
 * Policy runtime versions (OPA, Sentinel) as a site admin registers them: a top-level download
 * (`url`, `sha`) and builds per platform (`archs`). The top-level download is the linux/amd64
 * build, so responses take `url` and `sha` from that build, and naming a top-level `url` or `sha`
 * rewrites it.
 */

/** One build of a version: where to download it and its SHA-256, for an operating system and architecture. */
export interface ToolBuild {
  url: string;
  sha: string;
  os: string;
  arch: string;
}

const isDefault = (b: ToolBuild) => b.os === 'linux' && b.arch === 'amd64';

/** The linux/amd64 build, which the top-level `url` and `sha` describe; undefined when there is none. */
export const defaultBuild = (archs: readonly ToolBuild[]): ToolBuild | undefined => archs.find(isDefault);

/** The builds of a new version: those given, or else the top-level download as its linux/amd64 build. */
export function buildsAtCreation(
  url: string | undefined,
  sha: string | undefined,
  archs: ToolBuild[] | undefined,
): ToolBuild[] {
  if (archs?.length) return archs;
  return url && sha ? [{ url, sha, os: 'linux', arch: 'amd64' }] : [];
}

/** What a new version lacks: a download, as a top-level url and sha or as builds. */
export function creationProblems(
  url: string | undefined,
  sha: string | undefined,
  archs: ToolBuild[] | undefined,
): Problem[] {
  if (archs?.length) return [];
  if (url && !sha) return [{ detail: 'sha is required with url', field: { attribute: 'sha' } }];
  if (sha && !url) return [{ detail: 'url is required with sha', field: { attribute: 'url' } }];
  if (!url) return [{ detail: 'a version needs a download: url and sha, or archs', field: { attribute: 'url' } }];
  return [];
}

/**
 * The builds after an update: those given replace the old ones; a top-level `url` or `sha` then
 * rewrites the linux/amd64 build from the top-level download (what is not named keeps the stored
 * top-level value, or the build's own).
 */
export function buildsAfterUpdate(
  current: { url: string | null; sha: string | null; archs: ToolBuild[] },
  change: { url?: string; sha?: string; archs?: ToolBuild[] },
): { url: string | null; sha: string | null; archs: ToolBuild[] } {
  const archs = change.archs ?? current.archs;
  if (change.url === undefined && change.sha === undefined) return { url: current.url, sha: current.sha, archs };
  const old = defaultBuild(archs);
  const url = change.url ?? current.url ?? old?.url ?? '';
  const sha = change.sha ?? current.sha ?? old?.sha ?? '';
  return { url, sha, archs: [{ url, sha, os: 'linux', arch: 'amd64' }, ...archs.filter((b) => !isDefault(b))] };
}
