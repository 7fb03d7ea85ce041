// The public face of the operations feature (what operators watch: metrics, the record of run moves, the database's health), which server and workers call.
export { recordRunMoves, type MoveObserver } from './move-observer.js';
export { scrape } from './metrics.js';
export { pingDatabase } from '../platform/db.js';
