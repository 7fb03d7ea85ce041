import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, ensureDatabase } from '../db.js';
import { loadConfig } from '../config.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations', import.meta.url));
// Arbitrary constant shared by every process of this service: the advisory lock key for migrations.
const LOCK_KEY = 7_431_002;

/**
 * Applies pending migrations. Creates the database first if needed. A Postgres advisory lock
 * serialises concurrent callers, so two processes starting at once apply each migration once.
 */
export async function migrateLatest(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  const db = createDb(databaseUrl, 2);
  try {
    await lock.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    const [, applied] = (await db.migrate.latest({ directory: MIGRATIONS_DIR, loadExtensions: ['.js'] })) as [
      number,
      string[],
    ];
    return applied;
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await lock.end();
    await db.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = loadConfig();
  migrateLatest(config.databaseUrl).then(
    (applied) => {
      process.stdout.write(JSON.stringify({ level: 'info', message: 'migrations applied', applied }) + '\n');
    },
    (err: unknown) => {
      process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
