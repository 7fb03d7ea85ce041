import { createServer, type IncomingMessage, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../shared/platform/config.js';
import { createSandbox, sandboxSettings, type Sandbox } from '../../shared/platform/sandbox/sandbox.js';

/** A sandbox in mode `none`: programs run directly (for unit tests of what runs, not where). */
export function unsandboxed(): Sandbox {
  return createSandbox({ ...sandboxSettings(loadConfig({ ENCRYPTION_KEY: 'a'.repeat(64) })), mode: 'none' });
}

/**
 * This machine's first IPv4 address other than loopback: the address by which a run's sandbox
 * can reach a test's servers (its own loopback is not the host's). Test workers allow it
 * (RUN_NETWORK_ALLOWED_CIDRS); a worker that should not reach the host is started without.
 */
export function sandboxHost(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4');
  if (!found)
    throw new Error(
      "this machine has no IPv4 address besides loopback: sandboxed runs cannot reach the tests' servers",
    );
  return found.address;
}

/** Starts `server` on every address; resolves with the URL base by which sandboxes reach it. */
export async function listenForSandboxes(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  return `http://${sandboxHost()}:${(server.address() as AddressInfo).port}`;
}

/** One request a witness received. */
export interface Sighting {
  path: string;
  body: string;
  from: string;
}

/**
 * A real HTTP server that records what reaches it: a sandboxed command reports a side effect by
 * calling it (the run's files are not visible outside the sandbox), and an attack test proves a
 * destination unreachable by its staying empty.
 */
export interface Witness {
  /** Base URL by which sandboxed programs reach it. */
  url: string;
  port: number;
  sightings: Sighting[];
  saw(path: string): boolean;
  /**
   * A shell command that reports `path`, with the output of `bodyCommand` as its body when given
   * (curl, with no quotes in it, so it fits in an HCL string).
   */
  report(path: string, bodyCommand?: string): string;
  close(): Promise<void>;
}

export async function startWitness(): Promise<Witness> {
  const sightings: Sighting[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      sightings.push({
        path: req.url ?? '',
        body: Buffer.concat(parts).toString('utf8'),
        from: req.socket.remoteAddress ?? '',
      });
      res.end('seen\n');
    });
  });
  const url = await listenForSandboxes(server);
  const port = (server.address() as AddressInfo).port;
  return {
    url,
    port,
    sightings,
    saw: (path) => sightings.some((s) => s.path === path),
    report: (path, bodyCommand) =>
      bodyCommand
        ? `(${bodyCommand}) | curl -s --max-time 10 --data-binary @- ${url}${path}`
        : `curl -s --max-time 10 -X POST ${url}${path}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
