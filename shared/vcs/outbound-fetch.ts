import type { OutboundClient, OutboundRequest, OutboundResult } from '../platform/outbound.js';

/**
 * The guarded outbound client behind the WHATWG fetch signature, so API clients written for fetch
 * (octokit) call the providers through the same address checks as every other outbound call.
 */

type Method = NonNullable<OutboundRequest['method']>;

const METHODS: readonly string[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] satisfies Method[];

const isMethod = (value: string): value is Method => METHODS.includes(value);

/**
 * Request headers left to the outbound client: it sets the body's length itself, and it hands back
 * the body as text, which a compressed response would not survive.
 */
const DROPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'accept-encoding']);

/** The statuses fetch follows when it follows redirects (304 is not one). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Statuses whose responses have no body: the Response constructor refuses one for them. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Rejects the way fetch does when no usable response arrived, with the reason as the cause. */
const networkError = (reason: string): TypeError => new TypeError('fetch failed', { cause: reason });

/** The result once it arrives, or the signal's reason as soon as the caller aborts. */
function untilAborted(sent: Promise<OutboundResult>, signal: AbortSignal): Promise<OutboundResult> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // send never rejects: failures come back in the result.
    void sent.then((result) => {
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    });
  });
}

/**
 * A fetch that sends through the guarded outbound client. Bodies go as text (the client takes
 * strings); redirects are not followed, so a redirect fails unless the caller asked for them as
 * they are (redirect: 'manual'); a response cut at the client's size limit fails too.
 */
export function guardedFetch(outbound: OutboundClient): typeof fetch {
  return async (input, init) => {
    // Request normalises the URL, method, headers, body and signal of every form fetch takes.
    const request = new Request(input, init);
    const method = request.method.toUpperCase();
    if (!isMethod(method)) throw new TypeError(`the ${method} method is not supported`);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) if (!DROPPED_HEADERS.has(name)) headers[name] = value;
    const body = request.body === null ? undefined : await request.text();

    const result = await untilAborted(outbound.send({ url: request.url, method, headers, body }), request.signal);
    if (result.status === null) throw networkError(result.error ?? 'no response');
    if (REDIRECT_STATUSES.has(result.status) && request.redirect !== 'manual')
      throw networkError(result.error ?? 'redirects are not followed');
    if (result.truncated) throw networkError('the response body exceeds the size limit');
    if (result.status < 200 || result.status > 599) throw networkError(`unexpected status ${result.status}`);

    const responseHeaders = new Headers();
    for (const [name, values] of Object.entries(result.headers))
      for (const value of values) responseHeaders.append(name, value);
    const response = new Response(NULL_BODY_STATUSES.has(result.status) ? null : result.body, {
      status: result.status,
      headers: responseHeaders,
    });
    // A constructed Response has an empty URL; callers report the one they asked for.
    Object.defineProperty(response, 'url', { value: request.url });
    return response;
  };
}
