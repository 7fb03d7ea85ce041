// The public face of auto-destroy: the sweep that queues a destroy run for workspaces past their destroy time.
export { sweepAutoDestroy } from './commands.js';
