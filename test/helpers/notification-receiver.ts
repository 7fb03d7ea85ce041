import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';

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

export async function startReceiver(token: string | null, status: () => number = () => 200): Promise<NotificationReceiver> {
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
      state.received.push({ raw, body, headers: req.headers, signatureValid: req.headers['x-svc-notification-signature'] === expected || (!token && req.headers['x-svc-notification-signature'] === undefined) });
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
