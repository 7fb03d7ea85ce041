import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

/** A parameter of a policy set; a sensitive one's value is sealed in `value_sealed` and `value` is null (see storedValue). */
export interface PolicySetParameterRow {
  id: string;
  policy_set_id: string;
  key: string;
  value: string | null;
  value_sealed: string | null;
  sensitive: boolean;
  created_at: Date;
  updated_at: Date;
}

type Stored = Pick<PolicySetParameterRow, 'key' | 'value' | 'value_sealed' | 'sensitive'>;

const parameters = (db: Db) => db<PolicySetParameterRow>('policy_set_parameters');

/** A parameter of the set by id, or undefined. */
export const findParameter = (db: Db, setId: string, id: string) =>
  parameters(db).where({ policy_set_id: setId, id }).first();

/** A set's parameters in creation order. */
export const parametersOf = (db: Db, setId: string): Promise<PolicySetParameterRow[]> =>
  parameters(db)
    .where({ policy_set_id: setId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);

export async function parameterKeyTaken(db: Db, setId: string, key: string, exceptId?: string): Promise<boolean> {
  const q = parameters(db).where({ policy_set_id: setId, key });
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

export async function insertParameter(db: Db, setId: string, f: Stored): Promise<PolicySetParameterRow> {
  const [row] = await parameters(db)
    .insert({ id: newId('var'), policy_set_id: setId, ...f })
    .returning('*');
  return row;
}

export async function updateParameter(db: Db, id: string, changes: Partial<Stored>): Promise<PolicySetParameterRow> {
  const [row] = await parameters(db)
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Deletes a parameter of the set; whether there was one. */
export const deleteParameter = async (db: Db, setId: string, id: string): Promise<boolean> =>
  (await parameters(db).where({ policy_set_id: setId, id }).del()) > 0;
