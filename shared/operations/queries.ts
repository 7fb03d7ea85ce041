import type { Db } from '../platform/db.js';
import { FINAL_RUN_STATUSES, RUN_STATUSES } from '../runs/machine.js';

/** Rows of one kind of durable work in one status: how many, and how long the oldest due one has waited. */
export interface BacklogRow {
  kind: string;
  status: string;
  rows: number;
  /** Seconds since the oldest row that is due became due (0 when none is). */
  oldestDueSeconds: number;
}

/** Rows of a table whose work is sent under a lease: pending ones due at next_attempt_at, sending ones whose lease ran out. */
const leased = (table: string, kind = table) =>
  `select '${kind}', status, count(*)::int,
          coalesce(extract(epoch from now() - min(case when status = 'pending' and next_attempt_at <= now() then next_attempt_at
                                                          when status = 'sending' and lease_until < now() then lease_until end)), 0)::float8
     from ${table} where status in ('pending', 'sending') group by status`;

/**
 * Every kind and status the backlog reports, so that each has a sample (0) when no row is in it:
 * an alert on a series is then evaluated from the first scrape of a fresh service, instead of
 * the series being absent until the first row of its kind appears.
 */
const BACKLOG_SERIES: Record<string, readonly string[]> = {
  runs: RUN_STATUSES.filter((s) => !(FINAL_RUN_STATUSES as readonly string[]).includes(s)),
  task_results: ['idle', 'pending', 'sending', 'delivered', 'gave_up'],
  notification_deliveries: ['pending', 'sending'],
  mail: ['pending', 'sending'],
  verifications: ['pending', 'running'],
  test_runs: ['pending', 'queued', 'running'],
};

/**
 * The durable work behind the queues, for the operator's gauges: unfinished runs by status (due
 * since their last move), run task results waiting for their request or callback, notification
 * deliveries, verifications, mail and module test runs not yet settled, with a zero row for every
 * kind and status that has none. One statement.
 */
export async function durableBacklog(db: Db): Promise<BacklogRow[]> {
  const finals = FINAL_RUN_STATUSES.map(() => '?').join(', ');
  const { rows } = await db.raw(
    `select 'runs' as kind, status, count(*)::int as rows, coalesce(extract(epoch from now() - min(updated_at)), 0)::float8 as due
       from runs where status not in (${finals}) group by status
     union all
     select 'task_results', dispatch_status, count(*)::int,
            coalesce(extract(epoch from now() - min(case when dispatch_status = 'pending' and next_dispatch_at <= now() then next_dispatch_at
                                                            when dispatch_status = 'sending' and dispatch_lease_until < now() then dispatch_lease_until end)), 0)::float8
       from task_results where status in ('pending', 'running') group by dispatch_status
     union all
     ${leased('notification_deliveries')}
     union all
     ${leased('mail_messages', 'mail')}
     union all
     select 'verifications', status, count(*)::int, coalesce(extract(epoch from now() - min(created_at)), 0)::float8
       from verifications where status in ('pending', 'running') group by status
     union all
     select 'test_runs', status, count(*)::int, coalesce(extract(epoch from now() - min(created_at)), 0)::float8
       from test_runs where status in ('pending', 'queued', 'running') group by status`,
    [...FINAL_RUN_STATUSES],
  );
  const found = (rows as { kind: string; status: string | null; rows: number; due: number }[]).map((r) => ({
    kind: r.kind,
    status: r.status ?? 'none',
    rows: r.rows,
    oldestDueSeconds: Math.max(0, r.due),
  }));
  const seen = new Set(found.map((r) => `${r.kind} ${r.status}`));
  const empty = Object.entries(BACKLOG_SERIES).flatMap(([kind, statuses]) =>
    statuses
      .filter((status) => !seen.has(`${kind} ${status}`))
      .map((status) => ({ kind, status, rows: 0, oldestDueSeconds: 0 })),
  );
  return [...found, ...empty];
}
