import { expect } from 'chai';
import { harness } from './harness.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** Calls the API as a client would (JSON:API content type, bearer token). */
export async function api(
  method: string,
  path: string,
  opts: {
    token?: string | null;
    body?: unknown;
    raw?: string | Uint8Array<ArrayBuffer>;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const h = harness();
  const headers: Record<string, string> = { Accept: 'application/vnd.api+json', ...opts.headers };
  if (opts.token !== null) headers.Authorization = `Bearer ${opts.token ?? h.adminToken}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    headers['Content-Type'] ??= 'application/vnd.api+json';
    body = opts.raw ?? JSON.stringify(opts.body);
  }
  const outsideApi =
    path.startsWith('/api/') ||
    ['/healthz', '/readyz', '/.well-known', '/admin/queues'].some((p) => path.startsWith(p));
  const url = path.startsWith('http') ? path : `${h.baseUrl}${outsideApi ? '' : '/api/v2'}${path}`;
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  return readResponse(res);
}

/** A response as the tests read it: status, headers, the body as text and parsed as JSON (null when it is not JSON). */
export async function readResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts a JSON:API error response with the given status (string status, title present). */
export function expectError(res: ApiResponse, status: number, detailMatch?: RegExp): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.body).to.have.property('errors').that.is.an('array').that.is.not.empty;
  for (const e of res.body.errors) {
    expect(e.status).to.equal(String(status));
    expect(e.title).to.be.a('string');
  }
  if (detailMatch) expect(res.body.errors.map((e: { detail: string }) => e.detail).join(' | ')).to.match(detailMatch);
}

/** Calls the API with `token` and asserts a 2xx answer; resolves with its body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function okBody(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await api(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
  return res.body;
}

export const doc = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});
