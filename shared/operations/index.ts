// The public face of the operations feature (what operators watch: the record of run moves in logs and metrics), which server and workers call.
export { recordRunMoves, type MoveObserver } from './move-observer.js';
export { scrape } from './metrics.js';
export { pingDatabase } from '../platform/db.js';
