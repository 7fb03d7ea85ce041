import type { Db } from '../platform/db.js';
import type { PolicyKind } from './rules.js';
import type { PolicyToolVersionRow } from './tool-versions.repo.js';
import { containing, fetchPage, type Page } from '../platform/page.js';

/** A version with how many policy sets pin it. */
export type ToolVersionView = PolicyToolVersionRow & { usage: number };

const withUsage = (db: Db, tool: PolicyKind) =>
  db('policy_tool_versions as v')
    .where('v.tool', tool)
    .select(
      'v.*',
      db.raw(
        '(select count(*)::int from policy_sets s where s.kind = v.tool and s.policy_tool_version = v.version) as usage',
      ),
    );

/** One page of a tool's versions, newest first; `filter` is an exact version, `search` a substring of one. */
export function toolVersionsPage(
  db: Db,
  tool: PolicyKind,
  narrow: { filter: string | null; search: string | null },
  page: Page,
) {
  const q = withUsage(db, tool);
  if (narrow.filter) q.where('v.version', narrow.filter);
  if (narrow.search) q.where('v.version', 'ilike', containing(narrow.search));
  return fetchPage<ToolVersionView>(
    q.orderBy([
      { column: 'v.created_at', order: 'desc' },
      { column: 'v.id', order: 'desc' },
    ]),
    page,
  );
}

/** One version of a tool with its usage. */
export const toolVersionView = (db: Db, tool: PolicyKind, id: string): Promise<ToolVersionView | undefined> =>
  withUsage(db, tool).where('v.id', id).first();
