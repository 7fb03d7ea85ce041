import type { Express } from 'express';
import type { SchemaName } from '../shared/schemas/index.js';

/** Marks the middleware after which every route needs a token (see auth.ts). */
export const AUTHENTICATES = Symbol('authenticates');
/** Names the schema a validation middleware checks request bodies against (see validate.ts). */
export const VALIDATES = Symbol('validates');

/** One route the application answers. */
export interface RouteEntry {
  /** Upper case: GET, POST, PATCH, PUT, DELETE. */
  method: string;
  /** The full path in Express's syntax (`/api/v2/workspaces/:id`). */
  path: string;
  /** Whether the request needs an API token (it comes after the authenticating middleware). */
  authenticated: boolean;
  /** The schema its JSON:API body is validated with, when a validation middleware does it. */
  schema?: SchemaName;
}

/** What this module reads of Express 5's router layers (its own shape, not a public API). */
interface Layer {
  rawPath?: string;
  handle: unknown;
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
}

const stackOf = (handle: unknown): Layer[] | undefined => (handle as { stack?: Layer[] } | null)?.stack;

const join = (prefix: string, path: string) => (prefix + (path === '/' ? '' : path)).replace(/\/{2,}/g, '/') || '/';

/**
 * Every route of an application, in the order Express tries them, read from its router stacks:
 * the route table that the API reference and the authorization matrix are generated from, so a
 * new route cannot go undescribed. Paths under `skip` (a mounted application of its own, such as
 * the queue board) are left out.
 */
export function routeTable(app: Express, skip: readonly string[] = []): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const walk = (layers: Layer[], prefix: string, authenticated: boolean): boolean => {
    for (const layer of layers) {
      if ((layer.handle as { [AUTHENTICATES]?: boolean })[AUTHENTICATES]) authenticated = true;
      if (layer.route) {
        const path = join(prefix, layer.route.path);
        const schema = layer.route.stack
          .map((l) => (l.handle as { [VALIDATES]?: SchemaName })[VALIDATES])
          .find(Boolean);
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          routes.push({ method: method.toUpperCase(), path, authenticated, ...(schema ? { schema } : {}) });
        }
        continue;
      }
      const inner = stackOf(layer.handle);
      if (!inner) continue;
      const mounted = join(prefix, layer.rawPath ?? '/');
      if (skip.some((s) => mounted === s || mounted.startsWith(`${s}/`))) continue;
      // A router mounted without a path shares its parent's authentication from there on.
      const after = walk(inner, mounted, authenticated);
      if (mounted === prefix) authenticated = after;
    }
    return authenticated;
  };
  walk(stackOf(app.router) ?? [], '', false);
  return routes;
}
