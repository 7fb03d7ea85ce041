import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { NOT_STARTED, runBounded } from '../../../shared/platform/subprocess.js';

const base = { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '' }, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024 };

describe('bounded child processes', () => {
  it('captures stdout, stderr and the exit code of a program that ends by itself', async () => {
    const r = await runBounded('sh', ['-c', 'echo out; echo err >&2; exit 3'], base);
    expect(r).to.deep.equal({
      code: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      stopped: null,
      startError: null,
    });
  });

  it('passes only the environment it is given', async () => {
    process.env.RLS_TEST_SECRET = 'do-not-leak';
    try {
      const r = await runBounded('sh', ['-c', 'echo "${RLS_TEST_SECRET:-absent} $ONLY"'], {
        ...base,
        env: { ...base.env, ONLY: 'given' },
      });
      expect(r.stdout).to.equal('absent given\n');
    } finally {
      delete process.env.RLS_TEST_SECRET;
    }
  });

  it('kills a program past its time limit, with whatever it started', async () => {
    const started = Date.now();
    const r = await runBounded('sh', ['-c', 'sleep 30; echo done'], { ...base, timeoutMs: 200 });
    expect(r.stopped).to.equal('timeout');
    expect(r.signal).to.equal('SIGKILL');
    expect(Date.now() - started).to.be.below(5000);
  });

  it('kills a program that writes more than the output limit and keeps no more than the limit', async () => {
    const r = await runBounded('sh', ['-c', 'yes'], { ...base, maxOutputBytes: 4096 });
    expect(r.stopped).to.equal('output-limit');
    expect(Buffer.byteLength(r.stdout)).to.be.at.most(4096);
  });

  it('kills a program when the signal aborts, and starts none when it already has', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await runBounded('sh', ['-c', 'sleep 30'], { ...base, signal: ac.signal });
    expect(r.stopped).to.equal('aborted');
    const again = await runBounded('sh', ['-c', 'echo ran'], { ...base, signal: ac.signal });
    expect(again).to.include({ stopped: 'aborted', stdout: '', code: null });
  });

  it('reports a program that cannot be started', async () => {
    const r = await runBounded('/nonexistent/runtime', ['version'], base);
    expect(r.stopped).to.equal('not-started');
    expect(r.code).to.equal(NOT_STARTED);
    expect(r.startError).to.match(/ENOENT/);
  });
});
