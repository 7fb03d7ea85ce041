import type { Runtime } from '../shared/runtime.js';
import type { Principal, EarlyGuardRead } from '../shared/identity/access.queries.js';
import type { CallbackContext } from '../shared/run-tasks/stages.js';
import type { SessionRow } from '../shared/identity/sign-in.repo.js';
import type { LimitDecision } from '../shared/platform/rate-limits.js';

/** Collaborators of the HTTP layer, wired by the entry file. */
export type AppDeps = Runtime;

declare global {
  namespace Express {
    interface Locals {
      requestId: string;
      principal: Principal;
      /** The granted read its token's lookup made for the request's guard (docs/design-for-speed.md, "Read-ahead of the guard's row"). */
      earlyGuardRead?: EarlyGuardRead;
      /** The console session a request was authenticated by (its cookie), when it was. */
      session?: SessionRow;
      /** Set instead of a principal when a run task's access token authenticates (see auth.ts). */
      taskAccess?: { runId: string };
      /** The task result a run task callback names, once its token has been checked (see task-stages.ts). */
      taskResult?: CallbackContext;
      /** The point of its API budget the request took before authentication (see startApiBudget). */
      apiBudget?: Promise<LimitDecision | null>;
      /** What went wrong reading the body before authentication, reported once it is authenticated (see readBodyEarly). */
      bodyError?: unknown;
    }
  }
}
