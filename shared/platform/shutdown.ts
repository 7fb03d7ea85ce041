import type { Logger } from './logger.js';

/** A repeat of the first signal within this long is the same request sent twice (Ctrl-C under npm reaches the process from the terminal and again from npm). */
const SAME_REQUEST_MS = 500;

/** SIGTERM/SIGINT runs `stop` once; a later second signal forces exit. */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let first: { signal: string; at: number } | null = null;
  const handle = (signal: string) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < SAME_REQUEST_MS) return;
      logger.warn('second signal: forcing exit', { signal });
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    logger.info('shutting down', { signal });
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}
