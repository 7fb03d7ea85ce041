import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A request the integration received: raw body bytes, parsed body, headers, and whether the signature matched. */
export interface ReceivedTaskRequest {
  raw: Buffer;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  signatureValid: boolean;
  at: number;
}

export type Reply = (req: ReceivedTaskRequest, index: number) => number | Promise<number>;

/**
 * A real run task integration: a local HTTP server that checks the HMAC-SHA512 signature over the
 * raw body with the shared key and answers with the status `reply` chooses (200 by default).
 */
export interface TaskIntegration {
  url: string;
  requests: ReceivedTaskRequest[];
  reply: Reply;
  close(): Promise<void>;
}

export async function startTaskIntegration(hmacKey: string | null, reply: Reply = () => 200): Promise<TaskIntegration> {
  const state = { reply, requests: [] as ReceivedTaskRequest[] };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(parts);
      const given = String(req.headers['x-svc-task-signature'] ?? '');
      const expected = hmacKey ? createHmac('sha512', hmacKey).update(raw).digest('hex') : '';
      const signatureValid =
        given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = {};
      }
      const received = { raw, body, headers: req.headers, signatureValid, at: Date.now() };
      state.requests.push(received);
      res.statusCode = await state.reply(received, state.requests.length - 1);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run-task`,
    get requests() {
      return state.requests;
    },
    get reply() {
      return state.reply;
    },
    set reply(fn: Reply) {
      state.reply = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Calls back as an integration does: PATCH the callback URL with the access token. */
export async function callback(
  url: string,
  token: string,
  attributes: Record<string, unknown>,
  outcomes?: unknown[],
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({
      data: {
        type: 'task-results',
        attributes,
        ...(outcomes ? { relationships: { outcomes: { data: outcomes } } } : {}),
      },
    }),
  });
  return { status: res.status, text: await res.text() };
}

/** One callback a scripted integration sends after accepting a request. */
export interface ScriptedCallback {
  status: string;
  message?: string;
  url?: string;
  outcomes?: unknown[];
}

/** A callback a scripted integration sent, with the status the service answered. */
export interface SentCallback {
  resultId: string;
  stage: string;
  step: ScriptedCallback;
  status: number;
}

/**
 * A reply that behaves as an integration does: it refuses a request whose signature does not
 * verify (403), answers 200 otherwise, and then in the background PATCHes the callback URL with
 * the access token, one step after another. The endpoint check at task creation (stage `test`)
 * is only answered. Every callback sent, with the service's answer, is appended to `sent`.
 */
export function answerThenCallBack(
  steps: ScriptedCallback[] | ((req: ReceivedTaskRequest) => ScriptedCallback[]),
  sent: SentCallback[],
): Reply {
  return (req) => {
    if (!req.signatureValid) return 403;
    if (req.body.stage === 'test') return 200;
    const list = typeof steps === 'function' ? steps(req) : steps;
    setTimeout(async () => {
      for (const step of list) {
        const attributes = {
          status: step.status,
          ...(step.message !== undefined ? { message: step.message } : {}),
          ...(step.url !== undefined ? { url: step.url } : {}),
        };
        let status = -1;
        try {
          const url = String(req.body.task_result_callback_url);
          status = (await callback(url, String(req.body.access_token), attributes, step.outcomes)).status;
        } catch {
          status = -1;
        }
        sent.push({ resultId: String(req.body.task_result_id), stage: String(req.body.stage), step, status });
      }
    }, 20);
    return 200;
  };
}

/** PATCHes a callback URL with an arbitrary body (for malformed callbacks); `token` null sends no Authorization. */
export async function rawCallback(
  url: string,
  token: string | null,
  body: string,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/vnd.api+json' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, { method: 'PATCH', headers, body });
  return { status: res.status, text: await res.text() };
}

/** A task result outcome as integrations send it inline in `relationships.outcomes.data`. */
export const outcome = (id: string, attributes: Record<string, unknown> = {}) => ({
  type: 'task-result-outcomes',
  attributes: { 'outcome-id': id, description: `outcome ${id}`, ...attributes },
});
