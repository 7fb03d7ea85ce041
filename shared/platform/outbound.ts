import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { IncomingMessage } from 'node:http';
import { hmacSha512Hex } from './crypto.js';

/*
 * The only place that calls user-supplied URLs. Every resolved address is vetted at connect time
 * and the socket connects only to the vetted address, so DNS rebinding cannot slip past the check.
 */

export interface OutboundOptions {
  /** CIDRs reachable despite the guard (e.g. loopback in tests); from OUTBOUND_ALLOWED_CIDRS. */
  allowedCidrs: readonly string[];
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBodyBytes?: number;
}

export interface OutboundRequest {
  url: string;
  method?: 'POST' | 'GET' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** When set, the exact body bytes are signed (hex HMAC-SHA512) into these headers. */
  sign?: { key: string | null; headers: string[] };
}

export interface OutboundResult {
  ok: boolean;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  headers: Record<string, string[]>;
  /** Up to maxBodyBytes of the response body. */
  body: string;
  truncated: boolean;
  durationMs: number;
  /** Why the call failed when there was no (acceptable) response. */
  error: string | null;
}

export class BlockedAddressError extends Error {}

// Always refused, even when an allowed CIDR would cover them: link-local and cloud metadata.
const ALWAYS_BLOCKED = ['169.254.0.0/16', 'fe80::/10', '100.100.100.200/32', 'fd00:ec2::254/128'].map((c) =>
  ipaddr.parseCIDR(c),
);

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

function normalise(address: string): Parsed {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

const inCidr = (ip: Parsed, [range, bits]: [Parsed, number]) => ip.kind() === range.kind() && ip.match(range, bits);

/** IPv6 global unicast: everything else (IPv4-compatible ::/96, unique local, 6to4, Teredo, ...) is refused unless allow-listed. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [Parsed, number];

/**
 * Whether an address may be connected to: public unicast (IPv6: global unicast, 2000::/3, outside
 * its special ranges), or inside an allowed CIDR; never link-local or metadata.
 */
export function addressAllowed(address: string, allowed: readonly [Parsed, number][]): boolean {
  let ip: Parsed;
  try {
    ip = normalise(address);
  } catch {
    return false;
  }
  if (ALWAYS_BLOCKED.some((c) => inCidr(ip, c as [Parsed, number]))) return false;
  if (allowed.some((c) => inCidr(ip, c))) return true;
  if (ip.kind() === 'ipv6' && !inCidr(ip, GLOBAL_UNICAST_V6)) return false;
  return ip.range() === 'unicast';
}

/**
 * What a refused or unresolvable destination is called, whichever it was: telling them apart, or
 * naming the address a name resolved to, would let a caller map internal names and addresses.
 */
const DESTINATION_NOT_ALLOWED = 'destination not allowed';

/**
 * What a refused destination is reported as: the refusal, and what an operator can do about it
 * when the destination is a legitimate internal one.
 */
const NOT_ALLOWED_EXPLAINED =
  `${DESTINATION_NOT_ALLOWED}: the host does not resolve, or resolves to a loopback, private or other non-public address; ` +
  'to let the service reach such a range, the operator adds it to OUTBOUND_ALLOWED_CIDRS (comma-separated CIDRs, e.g. 10.0.0.0/8); link-local addresses stay refused';

/** A failed call's error, said without the URL (which may carry credentials) or internal addresses. */
function failure(err: Error & { code?: unknown; cause?: unknown }): string {
  const code = typeof err.code === 'string' ? err.code : '';
  // The lookup hook turns every resolution failure into a BlockedAddressError too (see guardedLookup).
  if (
    err instanceof BlockedAddressError ||
    err.cause instanceof BlockedAddressError ||
    err.message.includes(DESTINATION_NOT_ALLOWED)
  )
    return NOT_ALLOWED_EXPLAINED;
  if (/connect timed out/.test(err.message))
    return err.message.replace(/^.*(connect timed out after \d+ ms).*$/s, '$1');
  return code ? `connection failed (${code})` : 'connection failed';
}

/**
 * The address a tool that connects by itself (git) may use for `hostname`: every address the name
 * resolves to must be allowed, as for the guarded client; the tool is then pinned to the first, so
 * a second lookup cannot lead it elsewhere.
 */
export async function allowedAddressOf(hostname: string, allowedCidrs: readonly string[]): Promise<string> {
  const allowed = allowedCidrs.map((c) => ipaddr.parseCIDR(c) as [Parsed, number]);
  const bare = hostname.replace(/^\[|\]$/g, '');
  const list: LookupAddress[] = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await new Promise((resolve, reject) =>
        dnsLookup(bare, { all: true }, (err, addresses) =>
          err ? reject(new BlockedAddressError(DESTINATION_NOT_ALLOWED)) : resolve(addresses),
        ),
      );
  if (!list.length || list.some((a) => !addressAllowed(a.address, allowed)))
    throw new BlockedAddressError(DESTINATION_NOT_ALLOWED);
  return list[0].address;
}

/** How long an idle kept-alive connection stays open. */
const IDLE_SOCKET_MS = 2000;

/** A client bound to one policy; create once per process. */
export function createOutboundClient(opts: OutboundOptions) {
  const allowed = opts.allowedCidrs.map((c) => ipaddr.parseCIDR(c) as [Parsed, number]);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const defaultTotalMs = opts.totalTimeoutMs ?? 15000;
  const maxBodyBytes = opts.maxBodyBytes ?? 64 * 1024;

  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(new BlockedAddressError(DESTINATION_NOT_ALLOWED), '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !addressAllowed(a.address, allowed));
      if (bad || !list.length) return callback(new BlockedAddressError(DESTINATION_NOT_ALLOWED), '', 0);
      if ((options as { all?: boolean }).all) return callback(null, list, 0);
      return callback(null, list[0].address, list[0].family);
    });
  };
  // A socket still connecting after the connect timeout is destroyed (the total timeout covers the rest).
  const limitConnect = (socket: Socket): Socket => {
    socket.setTimeout(connectTimeoutMs, () => {
      if (socket.connecting) socket.destroy(new Error(`connect timed out after ${connectTimeoutMs} ms`));
    });
    socket.once('connect', () => socket.setTimeout(0));
    return socket;
  };
  class GuardedHttpAgent extends http.Agent {
    override createConnection(options: object, cb?: unknown): Socket {
      return limitConnect(
        (
          http.Agent.prototype as unknown as { createConnection: (o: object, c?: unknown) => Socket }
        ).createConnection.call(this, options, cb),
      );
    }
  }
  class GuardedHttpsAgent extends https.Agent {
    override createConnection(options: object, cb?: unknown): Socket {
      return limitConnect(
        (
          https.Agent.prototype as unknown as { createConnection: (o: object, c?: unknown) => Socket }
        ).createConnection.call(this, options, cb),
      );
    }
  }
  // Connections are kept for reuse by later requests to the same origin: each was opened to an
  // address vetted when it connected. Idle ones close after IDLE_SOCKET_MS, before common server
  // keep-alive timeouts (5 s in Node), so a reused connection is rarely one the server is closing.
  const pooling = { keepAlive: true, timeout: IDLE_SOCKET_MS };
  const agents = {
    'http:': new GuardedHttpAgent({ lookup: guardedLookup, ...pooling }),
    'https:': new GuardedHttpsAgent({ lookup: guardedLookup, ...pooling }),
  };

  /**
   * The response body up to maxBodyBytes (the rest is not read), through the stream's events:
   * iterating it asynchronously costs a promise per chunk. A response that ends early (its
   * connection closed, or destroyed at the total timeout) is an error.
   */
  function readCapped(res: IncomingMessage): Promise<{ body: string; truncated: boolean }> {
    return new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      let size = 0;
      let settled = false;
      const text = () => Buffer.concat(parts).toString('utf8');
      const settle = (outcome: { body: string; truncated: boolean } | Error) => {
        if (settled) return;
        settled = true;
        res.removeListener('data', onData);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onData = (chunk: Buffer) => {
        const room = maxBodyBytes - size;
        if (chunk.length > room) {
          parts.push(chunk.subarray(0, room));
          settle({ body: text(), truncated: true });
          // The rest is not read: the connection is closed rather than drained.
          res.destroy();
          return;
        }
        parts.push(chunk);
        size += chunk.length;
      };
      res.on('data', onData);
      res.once('end', () => settle({ body: text(), truncated: false }));
      // Stays attached: a stream with no error listener would throw the error at the process.
      res.on('error', (err) => settle(err));
      res.once('close', () => settle(new Error('the response ended early')));
    });
  }

  /** The request's headers: the caller's, plus the body's length and an Accept header unless given. */
  function requestHeaders(req: OutboundRequest): Record<string, string | number> {
    const headers: Record<string, string | number> = { ...req.headers };
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'accept')) headers.Accept = '*/*';
    if (req.body !== undefined) headers['Content-Length'] = Buffer.byteLength(req.body);
    if (req.sign) {
      const signature = req.sign.key ? hmacSha512Hex(req.sign.key, req.body ?? '') : '';
      for (const h of req.sign.headers) headers[h] = signature;
    }
    return headers;
  }

  /**
   * Sends one request; never throws for network or policy failures (they come back in `error`).
   * Node's own HTTP client, as a fetch layer costs more CPU than the request itself
   * (docs/design-for-speed.md, "The outbound client on Node's HTTP client").
   */
  async function send(req: OutboundRequest, totalTimeoutMs = defaultTotalMs): Promise<OutboundResult> {
    const started = Date.now();
    const fail = (error: string, status: number | null = null): OutboundResult => ({
      ok: false,
      status,
      headers: {},
      body: '',
      truncated: false,
      durationMs: Date.now() - started,
      error,
    });
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return fail('invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('only http and https URLs are allowed');
    // Credentials in a URL are not sent (and never said back: they are secrets).
    if (url.username || url.password) return fail('URLs with credentials (user:password@) are not supported');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // IP literals never reach the lookup hook, so they are vetted here.
    if (isIP(literal) && !addressAllowed(literal, allowed)) return fail(NOT_ALLOWED_EXPLAINED);

    const protocol = url.protocol as 'http:' | 'https:';
    return new Promise((resolve) => {
      let ended = false;
      const end = (result: OutboundResult) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        resolve(result);
      };
      // Node's client follows no redirect: a 3xx comes back as it is, with an error saying so.
      const request = (protocol === 'https:' ? https : http).request(
        url,
        { method: req.method ?? 'POST', headers: requestHeaders(req), agent: agents[protocol] },
        (res) => {
          const status = res.statusCode ?? 0;
          readCapped(res).then(
            ({ body, truncated }) =>
              end({
                ok: status >= 200 && status < 300,
                status,
                headers: res.headersDistinct as Record<string, string[]>,
                body,
                truncated,
                durationMs: Date.now() - started,
                error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
              }),
            (err: Error) => end(fail(failure(err))),
          );
        },
      );
      // The total timeout covers connecting, sending and reading the whole response.
      const timer = setTimeout(() => {
        end(fail(`timed out after ${totalTimeoutMs} ms`));
        request.destroy();
      }, totalTimeoutMs);
      request.on('error', (err) => end(fail(failure(err))));
      request.end(req.body);
    });
  }

  return { send };
}

export type OutboundClient = ReturnType<typeof createOutboundClient>;
