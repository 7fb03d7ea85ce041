import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressAllowed, createOutboundClient } from '../../shared/platform/outbound.js';
import { hmacSha512Hex } from '../../shared/platform/crypto.js';
import ipaddr from 'ipaddr.js';

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

describe('outbound HTTP client (SSRF guard, limits, signatures)', () => {
  const loopback = createOutboundClient({
    allowedCidrs: ['127.0.0.0/8', '::1/128'],
    totalTimeoutMs: 1500,
    maxBodyBytes: 16,
  });
  const strict = createOutboundClient({ allowedCidrs: [] });
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  it('classifies addresses: public unicast yes; private, loopback, link-local and metadata no; mapped IPv6 unwrapped', () => {
    const none: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
    expect(addressAllowed('93.184.216.34', none)).to.equal(true);
    for (const a of [
      '10.0.0.1',
      '192.168.1.1',
      '172.16.0.1',
      '127.0.0.1',
      '::1',
      '169.254.169.254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      'fc00::1',
    ]) {
      expect(addressAllowed(a, none), a).to.equal(false);
    }
    const everything = [ipaddr.parseCIDR('0.0.0.0/0') as [ipaddr.IPv4, number]];
    expect(addressAllowed('169.254.169.254', everything)).to.equal(false);
    expect(addressAllowed('10.1.2.3', everything)).to.equal(true);
  });

  it('signs the exact body bytes, reads capped bodies and lowercases headers', async () => {
    let seen: { signature?: string; body?: string } = {};
    const { url, server } = await serve((req, res, body) => {
      seen = { signature: req.headers['x-sig'] as string, body };
      res.setHeader('X-Thing', 'a');
      res.end('0123456789abcdefghijklmnop');
    });
    servers.push(server);
    const body = JSON.stringify({ hello: 'wörld' });
    const result = await loopback.send({
      url,
      body,
      headers: { 'Content-Type': 'application/json' },
      sign: { key: 'k3y', headers: ['X-Sig'] },
    });
    expect(result.ok).to.equal(true);
    expect(result.status).to.equal(200);
    expect(seen.body).to.equal(body);
    expect(seen.signature).to.equal(hmacSha512Hex('k3y', body));
    expect(result.body).to.equal('0123456789abcdef');
    expect(result.truncated).to.equal(true);
    expect(result.headers['x-thing']).to.deep.equal(['a']);
  });

  it('sends an empty signature without a key', async () => {
    let signature: unknown;
    const { url, server } = await serve((req, res) => {
      signature = req.headers['x-sig'];
      res.end();
    });
    servers.push(server);
    await loopback.send({ url, body: '{}', sign: { key: null, headers: ['X-Sig'] } });
    expect(signature).to.equal('');
  });

  it('refuses loopback without an allowed CIDR, by literal and by name, before connecting', async () => {
    let hits = 0;
    const { url, server } = await serve((_req, res) => {
      hits++;
      res.end();
    });
    servers.push(server);
    const literal = await strict.send({ url, body: '{}' });
    expect(literal.ok).to.equal(false);
    expect(literal.error).to.match(/not allowed/);
    const byName = await strict.send({ url: url.replace('127.0.0.1', 'localhost'), body: '{}' });
    expect(byName.ok).to.equal(false);
    expect(byName.error).to.match(/not allowed/);
    expect(hits).to.equal(0);
    expect((await strict.send({ url: 'ftp://example.com/x' })).error).to.match(/only http/);
  });

  it('does not follow redirects and times out slow receivers', async () => {
    const redirect = await serve((_req, res) => {
      res.statusCode = 302;
      res.setHeader('Location', 'http://169.254.169.254/latest/meta-data');
      res.end();
    });
    servers.push(redirect.server);
    const r = await loopback.send({ url: redirect.url, body: '{}' });
    expect(r.ok).to.equal(false);
    expect(r.status).to.equal(302);
    expect(r.error).to.match(/redirect/);

    const slow = await serve(() => undefined);
    servers.push(slow.server);
    const t = await loopback.send({ url: slow.url, body: '{}' });
    expect(t.ok).to.equal(false);
    expect(t.status).to.equal(null);
    expect(t.error).to.match(/timed out/);
    slow.server.closeAllConnections();
  });

  it('times out a receiver that stalls mid-body, fails one that hangs up mid-body, and names a refused connection', async () => {
    const stalling = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial');
    });
    servers.push(stalling.server);
    const stalled = await loopback.send({ url: stalling.url, body: '{}' });
    expect(stalled).to.include({ ok: false, status: null, error: 'timed out after 1500 ms' });
    stalling.server.closeAllConnections();

    const hanging = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial', () => res.socket?.destroy());
    });
    servers.push(hanging.server);
    const hungUp = await loopback.send({ url: hanging.url, body: '{}' });
    expect(hungUp.ok).to.equal(false);
    expect(hungUp.status).to.equal(null);
    expect(hungUp.error).to.match(/^connection failed/);

    const closed = await serve(() => undefined);
    const port = (closed.server.address() as AddressInfo).port;
    await new Promise((r) => closed.server.close(r));
    const refused = await loopback.send({ url: `http://127.0.0.1:${port}/hook`, body: '{}' });
    expect(refused).to.include({ ok: false, status: null, error: 'connection failed (ECONNREFUSED)' });
  });

  it('sends the body with its length, and a GET without one', async () => {
    const seen: { method?: string; length?: string; encoding?: string; body: string }[] = [];
    const { url, server } = await serve((req, res, body) => {
      seen.push({
        method: req.method,
        length: req.headers['content-length'],
        encoding: req.headers['transfer-encoding'],
        body,
      });
      res.end('ok');
    });
    servers.push(server);
    const body = JSON.stringify({ name: 'wörld' });
    expect((await loopback.send({ url, body })).body).to.equal('ok');
    expect((await loopback.send({ url, method: 'GET' })).status).to.equal(200);
    expect(seen).to.deep.equal([
      { method: 'POST', length: String(Buffer.byteLength(body)), encoding: undefined, body },
      { method: 'GET', length: undefined, encoding: undefined, body: '' },
    ]);
  });
});
