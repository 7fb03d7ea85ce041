// The public face of the sweep feature (the periodic sweep that restarts stranded work), which server and workers call.
export { RECONCILE_BATCH, type ReconcileSource, reconcileSources, restoreSource } from './reconciler.js';
export { tryWithSweepLock } from './lock.repo.js';
