/**
 * The console's one way to read and write: the service's own API, same origin, with the session
 * cookie. State-changing requests carry the CSRF token the service set in the `tfcsrf` cookie
 * (`__Host-tfcsrf` over https).
 */

import type { components } from './api-schema.js';

export type Attrs = Record<string, unknown>;

export interface Linkage {
  id: string;
  type: string;
}

export interface Resource<A = Attrs> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<string, { data?: Linkage | Linkage[] | null; links?: Record<string, string> }>;
  links?: Record<string, string>;
}

export interface Doc<A = Attrs> {
  data: Resource<A>;
  included?: Resource[];
}

export interface ListDoc<A = Attrs> {
  data: Resource<A>[];
  included?: Resource[];
  meta?: {
    pagination?: {
      'current-page': number;
      'total-pages': number;
      'total-count': number;
      'next-page': number | null;
      'prev-page': number | null;
    };
  };
}

/** An API answer other than success, with the service's own words for it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The value of the CSRF cookie the service sets at sign-in. */
export function csrfToken(): string {
  const cookies = document.cookie.split(';').map((c) => c.trim());
  // Over https the service names it with the __Host- prefix (see the session's meta.csrf-cookie).
  for (const name of ['__Host-tfcsrf', 'tfcsrf']) {
    const found = cookies.find((c) => c.startsWith(`${name}=`));
    if (found) return decodeURIComponent(found.slice(name.length + 1));
  }
  return '';
}

const STATUS_WORDS: Record<number, string> = {
  400: 'The request was not understood.',
  401: 'You are not signed in, or your session has ended.',
  403: 'You are not allowed to do that.',
  404: 'Not found, or you do not have access to it.',
  409: 'That cannot be done in the current state.',
  413: 'That is too large.',
  422: 'Some of the values were not accepted.',
  429: 'Too many requests: wait a moment and try again.',
  503: 'The service is unavailable for a moment: try again.',
};

/** The errors of a JSON:API error document in words, or a sentence for the status alone. */
async function failureOf(res: Response): Promise<ApiFailure> {
  let words = '';
  try {
    const body = (await res.json()) as {
      errors?: { title?: string; detail?: string; source?: { pointer?: string } }[];
    };
    words = (body.errors ?? [])
      .map((e) => {
        const field = e.source?.pointer ? e.source.pointer.split('/').pop() : '';
        const text = e.detail || e.title || '';
        return field && text && !text.includes(field) ? `${field}: ${text}` : text;
      })
      .filter(Boolean)
      .join(' ');
  } catch {
    words = '';
  }
  return new ApiFailure(res.status, words || STATUS_WORDS[res.status] || `The service answered ${res.status}.`);
}

const urlOf = (path: string) => (path.startsWith('/api/') || path.startsWith('/v1/') ? path : `/api/v2${path}`);

/** One API call; resolves to the parsed JSON body (null for an empty one), rejects with ApiFailure. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/vnd.api+json, application/json' };
  if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = csrfToken();
  // A file (an archive to upload) is sent as its bytes; the console's own endpoints take plain
  // JSON, and the API takes JSON:API.
  const raw = body instanceof Blob;
  if (raw) headers['Content-Type'] = 'application/octet-stream';
  else if (body !== undefined)
    headers['Content-Type'] = path.startsWith('/api/console/') ? 'application/json' : 'application/vnd.api+json';
  let res: Response;
  try {
    res = await fetch(urlOf(path), {
      method,
      headers,
      body: raw ? body : body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, 'The service could not be reached: check your connection and try again.');
  }
  if (!res.ok) throw await failureOf(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A plain-text read (policy check output, logs). */
export async function text(path: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(urlOf(path), { credentials: 'same-origin' });
  } catch {
    throw new ApiFailure(0, 'The service could not be reached.');
  }
  if (!res.ok) throw await failureOf(res);
  return res.text();
}

export const get = <T>(path: string) => call<T>('GET', path);

type Schemas = components['schemas'];
/** The name of one of the service's request schemas (its OpenAPI document's components). */
export type SchemaName = keyof Schemas;
type Data<K extends SchemaName> = Schemas[K] extends { data: infer D } ? D : never;
type Part<K extends SchemaName, F extends string> = Data<K> extends { [P in F]?: infer V } ? V : never;
/** The attributes the request schema `K` takes, for typing a form's state. */
export type AttributesOf<K extends SchemaName> = NonNullable<Part<K, 'attributes'>>;

/**
 * A JSON:API create or update document, checked against the service's own request schema `K`
 * (console/src/api-schema.ts is generated from its /api/v2/openapi.json).
 */
export const doc = <K extends SchemaName>(
  _schema: K,
  type: Part<K, 'type'>,
  attributes: Part<K, 'attributes'>,
  relationships?: Part<K, 'relationships'>,
  id?: string,
) => ({
  data: { type, ...(id ? { id } : {}), attributes, ...(relationships ? { relationships } : {}) },
});

/** The included resource a relationship points at. */
export function related<A = Attrs>(
  d: { included?: Resource[] },
  r: Resource<unknown>,
  name: string,
): Resource<A> | undefined {
  const link = r.relationships?.[name]?.data;
  if (!link || Array.isArray(link)) return undefined;
  return d.included?.find((i) => i.type === link.type && i.id === link.id) as Resource<A> | undefined;
}

/** Ids of a to-many relationship. */
export function relatedIds(r: Resource<unknown>, name: string): string[] {
  const link = r.relationships?.[name]?.data;
  return Array.isArray(link) ? link.map((l) => l.id) : link ? [link.id] : [];
}

/** The path part of a URL the service gave (so the console stays on the origin it was loaded from). */
export function samePath(url: string): string {
  try {
    const u = new URL(url, window.location.origin);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
