import type { Runtime } from '../runtime.js';
import { pruneBefore, type Pruned } from './repo.js';

/**
 * Removes what is older than `days` days and done with (see pruneBefore): the logs and events of
 * finished runs, settled notification deliveries, and the attempts of deliveries and run task
 * requests. Logged when it removed anything.
 */
export async function pruneOldRecords(
  rt: Pick<Runtime, 'db' | 'logger'>,
  days: number,
  now = new Date(),
): Promise<Pruned> {
  const pruned = await pruneBefore(rt.db, new Date(now.getTime() - days * 86_400_000));
  if (Object.values(pruned).some((n) => n > 0)) rt.logger.info('pruned records past retention', { days, ...pruned });
  return pruned;
}
