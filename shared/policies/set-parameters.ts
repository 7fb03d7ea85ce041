import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import { parameterKeyProblems, sensitiveProblems } from '../variables/rules.js';
import { openValue, storedValue } from '../variables/index.js';
import {
  deleteParameter,
  findParameter,
  insertParameter,
  parameterKeyTaken,
  updateParameter,
  type PolicySetParameterRow,
} from './set-parameters.repo.js';

/*
 * Policy set parameters: a key unique in its set, a value sealed like a sensitive variable's when
 * sensitive, and sensitive for good once it is.
 */

export interface ParameterInput {
  key?: string;
  value?: string | null;
  sensitive?: boolean;
}

const taken = () => new Unprocessable('key has already been taken', { attribute: 'key' });
const keyRace = (err: unknown): never => {
  if (isUniqueViolation(err)) throw taken();
  throw err;
};

export async function createParameter(
  rt: Pick<Runtime, 'db' | 'config'>,
  setId: string,
  a: ParameterInput & { key: string },
): Promise<PolicySetParameterRow> {
  const problems = parameterKeyProblems(a.key);
  if (problems.length) throw Unprocessable.many(problems);
  if (await parameterKeyTaken(rt.db, setId, a.key)) throw taken();
  const sensitive = a.sensitive ?? false;
  return insertParameter(rt.db, setId, {
    key: a.key,
    sensitive,
    ...storedValue(rt.config.encryptionKey, a.value ?? '', sensitive),
  }).catch(keyRace);
}

/** Omitted attributes keep their value; making a parameter sensitive seals its current value. */
export async function changeParameter(
  rt: Pick<Runtime, 'db' | 'config'>,
  setId: string,
  id: string,
  a: ParameterInput,
): Promise<PolicySetParameterRow> {
  return rt.db.transaction(async (tx) => {
    const row = await findParameter(tx, setId, id).forUpdate();
    if (!row) throw new NotFound('parameter not found');
    const key = a.key ?? row.key;
    const sensitive = row.sensitive || (a.sensitive ?? false);
    const problems = [
      ...sensitiveProblems(row.sensitive, a.sensitive),
      ...(key !== row.key ? parameterKeyProblems(key) : []),
    ];
    if (problems.length) throw Unprocessable.many(problems);
    if (key !== row.key && (await parameterKeyTaken(tx, setId, key, row.id))) throw taken();
    const value =
      a.value !== undefined
        ? (a.value ?? '')
        : sensitive !== row.sensitive
          ? openValue(rt.config.encryptionKey, row)
          : undefined;
    return updateParameter(tx, row.id, {
      key,
      sensitive,
      ...(value !== undefined ? storedValue(rt.config.encryptionKey, value, sensitive) : {}),
    }).catch(keyRace);
  });
}

export async function removeParameter(db: Db, setId: string, id: string): Promise<void> {
  if (!(await deleteParameter(db, setId, id))) throw new NotFound('parameter not found');
}
