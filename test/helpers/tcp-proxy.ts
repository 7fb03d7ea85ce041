import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to a local port that a test can cut (every connection dropped, new ones refused)
 * and restore: the service on the other side looks gone, as when its host or network fails.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    port = (server!.address() as { port: number }).port;
  };
  const cut = async () => {
    const closing = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
    for (const s of sockets) s.destroy();
    await closing;
    server = undefined;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
    close: cut,
  };
}
