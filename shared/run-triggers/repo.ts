import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

/** A run trigger: an apply in `sourceable_id` queues a run in `workspace_id`. */
export interface RunTriggerRow {
  id: string;
  workspace_id: string;
  sourceable_id: string;
  created_at: Date;
}

/** A run trigger with the names of its two workspaces, as its document shows them. */
export interface NamedRunTriggerRow extends RunTriggerRow {
  workspace_name: string;
  sourceable_name: string;
}

/** The constraint that lets a workspace name a source once (see its migration). */
export const ONE_TRIGGER_PER_SOURCE = 'run_triggers_workspace_id_sourceable_id_unique';

/** Run triggers with their workspaces' names, from `run_triggers as t`. */
export const namedRunTriggers = (db: Db) =>
  db('run_triggers as t')
    .join('workspaces as w', 'w.id', 't.workspace_id')
    .join('workspaces as s', 's.id', 't.sourceable_id')
    .select('t.*', 'w.name as workspace_name', 's.name as sourceable_name');

export const findRunTrigger = (db: Db, id: string): Promise<NamedRunTriggerRow | undefined> =>
  namedRunTriggers(db).where('t.id', id).first();

/** How many sources a workspace names. */
export async function countRunTriggerSources(db: Db, workspaceId: string): Promise<number> {
  const [{ count }] = (await db('run_triggers').where({ workspace_id: workspaceId }).count({ count: '*' })) as {
    count: string | number;
  }[];
  return Number(count);
}

export async function insertRunTrigger(
  db: Db,
  attrs: Pick<RunTriggerRow, 'workspace_id' | 'sourceable_id'>,
): Promise<RunTriggerRow> {
  const [row] = (await db('run_triggers')
    .insert({ id: newId('rt'), ...attrs })
    .returning('*')) as RunTriggerRow[];
  return row;
}

export const deleteRunTrigger = (db: Db, id: string) => db('run_triggers').where({ id }).delete();

/** A workspace an apply queues a run in, with what the run is made from. */
export interface Subscriber {
  workspace_id: string;
  execution_mode: string;
  auto_apply_run_trigger: boolean;
  /** The workspace's current configuration version, when it has one. */
  cv_id: string | null;
  cv_status: string | null;
  cv_source: string | null;
}

/** The workspaces whose run triggers name `sourceId` as their source, by id. */
export function subscribersOf(db: Db, sourceId: string): Promise<Subscriber[]> {
  return db('run_triggers as t')
    .join('workspaces as w', 'w.id', 't.workspace_id')
    .leftJoin('configuration_versions as cv', 'cv.id', 'w.current_configuration_version_id')
    .where('t.sourceable_id', sourceId)
    .orderBy('w.id')
    .select(
      'w.id as workspace_id',
      'w.execution_mode',
      'w.auto_apply_run_trigger',
      'cv.id as cv_id',
      'cv.status as cv_status',
      'cv.source as cv_source',
    );
}

/** The name and organization of a source workspace, as the runs it triggers name it. */
export const sourceNames = (db: Db, workspaceId: string): Promise<{ name: string; organization_name: string }> =>
  db('workspaces').where({ id: workspaceId }).first('name', 'organization_name');

/** SQL: the workspace of the row named `row` (a run) is the source of some run trigger. */
export const isRunTriggerSource = (db: Db, row: string): Knex.Raw =>
  db.raw('exists (select 1 from run_triggers t where t.sourceable_id = ??.workspace_id)', [row]);
