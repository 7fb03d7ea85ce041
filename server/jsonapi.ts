import type { Page } from '../shared/platform/page.js';
import type { Request, Response } from 'express';
import { BadRequest } from '../shared/platform/errors.js';

export interface Linkage {
  type: string;
  id: string;
}

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Linkage | Linkage[] | null; links?: Record<string, string> }>;
  links?: Record<string, string>;
}

export type { Page } from '../shared/platform/page.js';

export const MEDIA_TYPE = 'application/vnd.api+json';

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
export const one = (type: string, id: string | null | undefined): { data: Linkage | null } => ({
  data: id ? { type, id } : null,
});
export const many = (type: string, ids: string[]): { data: Linkage[] } => ({ data: ids.map((id) => ({ type, id })) });

function queryValue(req: Request, key: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[key];
  if (Array.isArray(v)) return String(v[v.length - 1]);
  return typeof v === 'string' ? v : undefined;
}

function positiveInt(req: Request, key: string): number | undefined {
  const raw = queryValue(req, key);
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) throw new BadRequest(`${key} must be a positive integer`, key);
  return Number(raw);
}

/**
 * Reads page[number] and page[size] (raw bracket keys: the app uses the simple query parser).
 * Returns null when neither is given, for endpoints that are unpaginated in that case.
 */
export function readPage(req: Request): Page | null {
  const number = positiveInt(req, 'page[number]');
  const size = positiveInt(req, 'page[size]');
  if (number === undefined && size === undefined) return null;
  return { number: number ?? 1, size: Math.min(size ?? 20, 100) };
}

/** page[...] with the default page (first page of 20) when absent. */
export const readPageOrDefault = (req: Request): Page => readPage(req) ?? { number: 1, size: 20 };

/** Reads a filter or search parameter such as filter[source] or search[name]. */
export const readParam = (req: Request, key: string): string | undefined => queryValue(req, key);

/** Parses `include`, accepting hyphen and underscore spellings; an unknown value is a 400. */
export function readInclude(req: Request, allowed: readonly string[]): Set<string> {
  const raw = queryValue(req, 'include');
  const out = new Set<string>();
  if (!raw) return out;
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const name = part.replace(/-/g, '_');
    if (!allowed.includes(name)) throw new BadRequest(`Invalid include parameter: ${part}`, 'include');
    out.add(name);
  }
  return out;
}

function pageLink(req: Request, page: Page, number: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query as Record<string, unknown>)) {
    if (k !== 'page[number]' && k !== 'page[size]' && typeof v === 'string') params.set(k, v);
  }
  params.set('page[number]', String(number));
  params.set('page[size]', String(page.size));
  return `${req.baseUrl}${req.path}?${params.toString()}`;
}

/** The rows of one page of a list already read whole. */
export const sliceOf = <T>(rows: T[], page: Page): T[] =>
  rows.slice((page.number - 1) * page.size, page.number * page.size);

/** meta.pagination (numbers or null, as clients require) and the matching links. */
export function paginate(
  req: Request,
  page: Page,
  total: number,
): { meta: Record<string, unknown>; links: Record<string, string | null> } {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const prev = page.number > 1 ? page.number - 1 : null;
  const next = page.number < totalPages ? page.number + 1 : null;
  return {
    meta: {
      pagination: {
        'current-page': page.number,
        'page-size': page.size,
        'prev-page': prev,
        'next-page': next,
        'total-pages': totalPages,
        'total-count': total,
      },
    },
    links: {
      self: pageLink(req, page, page.number),
      first: pageLink(req, page, 1),
      prev: prev ? pageLink(req, page, prev) : null,
      next: next ? pageLink(req, page, next) : null,
      last: pageLink(req, page, totalPages),
    },
  };
}

/** The Content-Type of every JSON:API document, as Express would write it for MEDIA_TYPE. */
const DOCUMENT_TYPE = `${MEDIA_TYPE}; charset=utf-8`;

/**
 * Sends a JSON:API document. Written straight to the response: Express's `send` would look the
 * type's charset up, copy the text into a buffer and check for conditional requests, none of which
 * a document needs (it has no ETag or Last-Modified), and that work showed in the API's profiles.
 * A HEAD request gets the headers only (Node writes no body for it).
 */
export function send(res: Response, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', DOCUMENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Sends one resource, with `included` when given. */
export function sendResource(res: Response, status: number, data: Resource, included?: Resource[]): void {
  send(res, status, included && included.length ? { data, included } : { data });
}

/** Removes duplicate included resources (same type and id). */
export function uniqueResources(resources: Resource[]): Resource[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const key = `${r.type}/${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** meta.pagination for a list served whole (one page holding every item). */
export const wholeListMeta = (count: number) => ({
  pagination: {
    'current-page': 1,
    'page-size': count,
    'prev-page': null,
    'next-page': null,
    'total-pages': 1,
    'total-count': count,
  },
});
