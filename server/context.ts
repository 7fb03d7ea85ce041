import type { Runtime } from '../shared/runtime.js';
import type { Principal } from '../shared/access.js';

/** Collaborators of the HTTP layer, wired by the entry file. */
export type AppDeps = Runtime;

declare global {
  namespace Express {
    interface Locals {
      requestId: string;
      principal: Principal;
      /** Set instead of a principal when a run task's access token authenticates (see auth.ts). */
      taskAccess?: { runId: string };
    }
  }
}
