import type { Express } from 'express';
import { schemas } from '../shared/schemas/index.js';
import { routeTable, type RouteEntry } from './route-table.js';
import { BOARD_PATH } from './board.js';
import { CONSOLE_PATH } from './console.js';

type Json = Record<string, unknown>;

/** `/api/v2/workspaces/:id` -> `/api/v2/workspaces/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The resource a path is about: its first fixed segment after the API prefix and any organization. */
function tagOf(path: string): string {
  const parts = path
    .replace(/^\/api\/v2/, '')
    .split('/')
    .filter((p) => p && !p.startsWith(':'));
  if (parts[0] === 'organizations' && parts.length > 1) return parts[1] === 'tests' ? 'registry-modules' : parts[1];
  return parts[0] ?? 'meta';
}

/** A one-line summary from the method and the path's shape (list, show, create, update, delete, or the action's name). */
function summaryOf(route: RouteEntry): string {
  const segments = route.path.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const subject = segments.filter((s) => !s.startsWith(':')).pop() ?? '';
  if (segments.includes('actions')) return `${last.replace(/[_-]/g, ' ')} (action)`;
  const item = last.startsWith(':');
  switch (route.method) {
    case 'GET':
      return item ? `Show one of ${subject}` : `Read ${subject}`;
    case 'POST':
      return `Create or add ${subject}`;
    case 'PATCH':
      return `Update ${subject}`;
    case 'PUT':
      return `Upload ${subject}`;
    case 'DELETE':
      return item ? `Delete one of ${subject}` : `Delete or remove ${subject}`;
    default:
      return `${route.method} ${subject}`;
  }
}

/** The console's sign-in API takes plain JSON; everything else takes JSON:API documents. */
const bodyMediaType = (route: RouteEntry): string =>
  route.path.startsWith('/api/console/') ? 'application/json' : 'application/vnd.api+json';

function operation(route: RouteEntry, operationIds: Set<string>): Json {
  let operationId = `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`;
  while (operationIds.has(operationId)) operationId += '_';
  operationIds.add(operationId);
  const params = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const responses: Json = {
    default: {
      description: 'A JSON:API document, or a JSON:API error document',
      content: { 'application/vnd.api+json': { schema: { $ref: '#/components/schemas/document' } } },
    },
  };
  if (route.authenticated)
    responses['401'] = {
      description: 'No valid API token',
      content: { 'application/vnd.api+json': { schema: { $ref: '#/components/schemas/errors' } } },
    };
  return {
    operationId,
    summary: summaryOf(route),
    tags: [tagOf(route.path)],
    security: route.authenticated ? [{ token: [] }] : [],
    ...(params.length ? { parameters: params } : {}),
    ...(route.schema
      ? {
          requestBody: {
            required: true,
            content: { [bodyMediaType(route)]: { schema: { $ref: `#/components/schemas/${route.schema}` } } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The API reference as an OpenAPI 3.1 document, generated from the application's route table and
 * the JSON Schemas its request bodies are validated with, so it describes every route there is
 * (the queue board and the web console, applications of their own, aside).
 */
export function openApiDocument(app: Express): Json {
  const paths: Record<string, Json> = {};
  const operationIds = new Set<string>();
  for (const route of routeTable(app, [BOARD_PATH, CONSOLE_PATH])) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, operationIds) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Run lifecycle service API',
      version: '2',
      description:
        'The Terraform Cloud/Enterprise compatible API of this service (JSON:API under /api/v2), signed object and log URLs, health and discovery. Generated from the route table and the request schemas.',
    },
    paths,
    components: {
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: 'A user, team or organization API token' },
      },
      schemas: {
        ...schemas,
        document: {
          type: 'object',
          description: 'A JSON:API document: data (a resource or a list), included, links and meta',
        },
        errors: {
          type: 'object',
          required: ['errors'],
          properties: {
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['status', 'title'],
                properties: {
                  status: { type: 'string' },
                  title: { type: 'string' },
                  detail: { type: 'string' },
                  source: { type: 'object' },
                },
              },
            },
          },
        },
      },
    },
  };
}
