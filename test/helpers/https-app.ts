import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../shared/platform/config.js';
import { createLogger } from '../../shared/platform/logger.js';
import { closeRuntime, openRuntime } from '../../shared/runtime.js';
import { createRunLifecycle } from '../../shared/lifecycle-areas.js';
import { startWeb } from '../../server/web.js';
import { freePort, harness } from './harness.js';
import type { ApiResponse } from './api.js';

/** The service over HTTPS (a self-signed certificate for localhost), on this run's database and queues. */
export interface HttpsApp {
  /** `localhost:<port>`: the host name the CLI is given. */
  host: string;
  baseUrl: string;
  /** The certificate's PEM file (SSL_CERT_FILE for the CLI). */
  certFile: string;
  ca: Buffer;
  close(): Promise<void>;
}

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), with its key, as PEM files in `dir`. */
export async function selfSignedCertificate(dir: string): Promise<{ certFile: string; keyFile: string; cert: Buffer }> {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: await readFile(certFile) };
}

/**
 * Starts a web process of the service serving https itself (TLS_CERT_FILE, TLS_KEY_FILE) with
 * BASE_URL https://localhost:<port>.
 */
export async function startHttpsApp(env: Record<string, string> = {}): Promise<HttpsApp> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-tls-'));
  const { certFile, keyFile, cert } = await selfSignedCertificate(dir);
  const port = await freePort();
  const baseUrl = `https://localhost:${port}`;
  const config = loadConfig({
    ...harness().childEnv,
    PORT: String(port),
    BASE_URL: baseUrl,
    UPLOAD_URL: baseUrl,
    TLS_CERT_FILE: certFile,
    TLS_KEY_FILE: keyFile,
    ...env,
  });
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  const web = await startWeb(rt, port);
  return {
    host: `localhost:${port}`,
    baseUrl,
    certFile,
    ca: cert,
    close: async () => {
      await web.stop();
      await closeRuntime(rt);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A request to the HTTPS app trusting its certificate (global fetch cannot be given a CA). */
export function httpsCall(
  app: HttpsApp,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<ApiResponse & { setCookies: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.baseUrl}${path}`, { method, headers: opts.headers, ca: app.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        const setCookies = res.headers['set-cookie'] ?? [];
        resolve({ status: res.statusCode ?? 0, headers, body, text, setCookies });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
