import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { api, doc } from './api.js';
import { createOrg, createWorkspace } from './fixtures.js';
import { uploadConfig } from './terraform.js';

export interface ReceivedNotification {
  raw: Buffer;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: IncomingMessage['headers'];
  /** Whether X-Svc-Notification-Signature matched the HMAC-SHA512 of the raw body under the token. */
  signatureValid: boolean;
}

/** A real notification receiver: a local HTTP server that checks signatures and answers `status()`. */
export interface NotificationReceiver {
  url: string;
  received: ReceivedNotification[];
  status: () => number;
  close(): Promise<void>;
}

export async function startReceiver(
  token: string | null,
  status: () => number = () => 200,
): Promise<NotificationReceiver> {
  const state = { received: [] as ReceivedNotification[], status };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      const expected = token ? createHmac('sha512', token).update(raw).digest('hex') : '';
      let body = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = {};
      }
      state.received.push({
        raw,
        body,
        headers: req.headers,
        signatureValid:
          req.headers['x-svc-notification-signature'] === expected ||
          (!token && req.headers['x-svc-notification-signature'] === undefined),
      });
      res.statusCode = state.status();
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    get received() {
      return state.received;
    },
    get status() {
      return state.status;
    },
    set status(fn: () => number) {
      state.status = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** What a scripted receiver answers to one request; `hold` delays the answer until it resolves. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string;
  hold?: Promise<unknown>;
}

export interface ScriptedRequest {
  raw: Buffer;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: IncomingMessage['headers'];
  /** X-Svc-Notification-Signature as received (undefined when absent). */
  signature: string | undefined;
  /** Whether the signature matches the HMAC-SHA512 of the raw body under the token (false without a token). */
  signatureValid: boolean;
  /** Milliseconds since the epoch when the request body was complete. */
  at: number;
}

/** A local HTTP server whose answer to each request is decided by `answer` (status, headers, delay). */
export interface ScriptedReceiver {
  url: string;
  port: number;
  received: ScriptedRequest[];
  answer: (req: ScriptedRequest, index: number) => ScriptedAnswer;
  close(): Promise<void>;
}

export async function startScriptedReceiver(
  token: string | null,
  answer: (req: ScriptedRequest, index: number) => ScriptedAnswer = () => ({ status: 200 }),
  /** The loopback address it listens on (127.0.0.x: each its own destination host). */
  host = '127.0.0.1',
): Promise<ScriptedReceiver> {
  const state = { received: [] as ScriptedRequest[], answer };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      let body = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = {};
      }
      const signature = req.headers['x-svc-notification-signature'] as string | undefined;
      const expected = token ? createHmac('sha512', token).update(raw).digest('hex') : null;
      const signatureValid = expected !== null && signature === expected;
      const entry: ScriptedRequest = { raw, body, headers: req.headers, signature, signatureValid, at: Date.now() };
      state.received.push(entry);
      const a = state.answer(entry, state.received.length - 1);
      void Promise.resolve(a.hold).then(() => {
        if (res.destroyed || req.socket.destroyed) return;
        res.statusCode = a.status;
        for (const [k, v] of Object.entries(a.headers ?? {})) res.setHeader(k, v);
        res.end(a.body ?? 'ok');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/hook`,
    port,
    get received() {
      return state.received;
    },
    get answer() {
      return state.answer;
    },
    set answer(fn: (req: ScriptedRequest, index: number) => ScriptedAnswer) {
      state.answer = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * A fresh organization with one workspace (`attrs`) whose one generic notification configuration
 * sends `triggers` to `url` (signed with `token` when given), and a configuration uploaded to it.
 */
export async function notifiedWorkspace(
  url: string,
  triggers: string[],
  token: string | null,
  attrs: Record<string, unknown> = {},
) {
  const org = await createOrg();
  const ws = await createWorkspace(org, attrs);
  const nc = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
    token: org.owner.token,
    body: doc('notification-configuration', {
      'destination-type': 'generic',
      enabled: true,
      name: 'hook',
      ...(token ? { token } : {}),
      url,
      triggers,
    }),
  });
  expect(nc.status, nc.text).to.equal(201);
  const cv = await uploadConfig(ws.id, org.owner.token, {
    'main.tf': 'resource "terraform_data" "a" { input = "x" }\n',
  });
  return { org, token: org.owner.token, ws, cv };
}
