import { harness } from './harness.js';
import { countRows } from './fixtures.js';

/** Reads shared by the configuration version tests. */

export const db = () => harness().rt.db;
export const cvRow = (id: string) => db()('configuration_versions').where({ id }).first();
export const statusOf = async (id: string): Promise<string> => (await cvRow(id)).status;
export const currentCvOf = async (wsId: string): Promise<string | null> =>
  (await db()('workspaces').where({ id: wsId }).first('current_configuration_version_id'))
    .current_configuration_version_id;

const TABLES = ['configuration_versions', 'objects', 'object_chunks', 'runs', 'run_events', 'ingress_attributes'];

/** Row counts of every table this area writes, the version row and the workspace's current version. */
export async function snapshot(cvId?: string, wsId?: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const t of TABLES) out[t] = await countRows(t);
  if (cvId) out.cv = await cvRow(cvId);
  if (wsId) out.current = await currentCvOf(wsId);
  return out;
}
