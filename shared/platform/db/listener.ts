import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * Waits for PostgreSQL notifications on one channel (LISTEN/NOTIFY) over a connection of its own,
 * opened on first use: a process waits for a row another process settles without asking the
 * database again and again. A notification names a key (a row's id); every waiter on that key
 * wakes. When the connection fails every waiter wakes too, so that it reads the row itself and
 * waits again on a new connection.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /** Listens from now on (call before the work that will notify, so nothing is missed). */
  listen(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      if (err)
        this.logger.warn('notification listener lost its connection', { channel: this.channel, error: String(err) });
      for (const key of [...this.waiters.keys()]) this.wake(key);
      void client.end().catch(() => undefined);
    };
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.wake(n.payload);
    });
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${pg.Client.prototype.escapeIdentifier(this.channel)}`);
    this.client = client;
  }

  private wake(key: string): void {
    const set = this.waiters.get(key);
    if (!set) return;
    this.waiters.delete(key);
    for (const resolve of set) resolve();
  }

  /** Resolves when `key` is notified, the connection fails, or `ms` pass, whichever comes first. */
  wait(key: string, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const set = this.waiters.get(key) ?? new Set();
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (!set.size && this.waiters.get(key) === set) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      set.add(done);
      this.waiters.set(key, set);
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    for (const key of [...this.waiters.keys()]) this.wake(key);
    await client?.end().catch(() => undefined);
  }
}
