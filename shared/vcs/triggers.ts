import type { VcsEvent } from './events.js';

/** What of a workspace decides whether a repository event runs it (pure). */
export interface FollowingWorkspace {
  /** The branch it follows; empty: the repository's default branch. */
  branch: string;
  tagsRegex: string | null;
  speculativeEnabled: boolean;
  fileTriggersEnabled: boolean;
  workingDirectory: string;
  triggerPrefixes: string[];
  triggerPatterns: string[];
}

/** The run an event starts in a workspace: a speculative plan for a pull request, else a run that may apply. */
export interface TriggeredRun {
  speculative: boolean;
}

/**
 * Whether a repository event starts a run in a workspace, and which: a push to the branch it
 * follows (when file triggers allow), a tag its tags-regex matches (such a workspace follows tags,
 * not pushes), or a pull request opened or updated against its branch (a speculative plan).
 */
export function runFor(ws: FollowingWorkspace, e: VcsEvent): TriggeredRun | null {
  if (e.deleted) return null;
  const branch = ws.branch || e.defaultBranch;
  switch (e.kind) {
    case 'tag':
      return ws.tagsRegex && e.tag !== null && matches(ws.tagsRegex, e.tag) ? { speculative: false } : null;
    case 'push':
      if (ws.tagsRegex || e.branch !== branch) return null;
      if (ws.fileTriggersEnabled && e.changedFiles !== null && !touches(ws, e.changedFiles)) return null;
      return { speculative: false };
    case 'pull_request': {
      const pr = e.pullRequest;
      if (!pr || !ws.speculativeEnabled || (pr.action !== 'opened' && pr.action !== 'updated')) return null;
      return pr.baseBranch === branch ? { speculative: true } : null;
    }
  }
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return false;
  }
}

const relative = (path: string): string => path.replace(/^\/+/, '');

/**
 * Whether changed files concern the workspace: with trigger patterns, a file one matches; else a
 * file under its working directory or a trigger prefix. A workspace at the repository's root
 * without prefixes is concerned by every change.
 */
export function touches(ws: FollowingWorkspace, files: readonly string[]): boolean {
  if (ws.triggerPatterns.length) {
    const globs = ws.triggerPatterns.map(globToRegExp);
    return files.some((f) => globs.some((g) => g.test(relative(f))));
  }
  const dir = relative(ws.workingDirectory).replace(/\/*$/, '');
  if (!dir && !ws.triggerPrefixes.length) return true;
  const prefixes = [dir, ...ws.triggerPrefixes.map(relative)].filter(Boolean);
  return files.some((f) => prefixes.some((p) => relative(f).startsWith(p.endsWith('/') ? p : `${p}/`)));
}

/** A trigger pattern (`**` any directories, `*` and `?` within one name) as a regular expression over a relative path. */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  const p = relative(pattern);
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*' && p[i + 1] === '*') {
      const slash = p[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
