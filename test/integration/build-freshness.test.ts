import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { appendFile, chmod, copyFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUILD = fileURLToPath(new URL('../../../bin/build.mjs', import.meta.url));

/**
 * A checkout in miniature for bin/build.mjs: a few sources, and stand-ins for tsc and vite that
 * record each call and write the outputs a start needs (the real compilers take a minute, and
 * what is tested here is only when the script calls them).
 */
async function miniatureCheckout(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'rls-build-'));
  await mkdir(join(root, 'bin'));
  await copyFile(BUILD, join(root, 'bin', 'build.mjs'));
  for (const dir of ['server', 'shared', 'console/src']) await mkdir(join(root, dir), { recursive: true });
  await writeFile(join(root, 'server', 'app.ts'), 'export {};\n');
  await writeFile(join(root, 'shared', 'config.ts'), 'export {};\n');
  await writeFile(join(root, 'console', 'src', 'main.tsx'), 'export {};\n');
  await writeFile(join(root, 'package.json'), '{}\n');
  await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
  const tool = (name: string, body: string) =>
    `#!/bin/sh\necho "${name} $*" >> "${join(root, 'calls.log')}"\n${body}\n`;
  await writeFile(
    join(root, 'node_modules', '.bin', 'tsc'),
    tool(
      'tsc',
      `[ -n "$FAIL_TSC" ] && exit 2\n[ "$2" = . ] && mkdir -p dist/bin && : > dist/bin/all.js\n[ -n "$EDIT_DURING_BUILD" ] && echo "// edited" >> server/app.ts\nexit 0`,
    ),
  );
  await writeFile(
    join(root, 'node_modules', '.bin', 'vite'),
    tool('vite', 'mkdir -p dist/console && : > dist/console/index.html'),
  );
  for (const name of ['tsc', 'vite']) await chmod(join(root, 'node_modules', '.bin', name), 0o755);
  return root;
}

/** Runs the miniature's bin/build.mjs; resolves with its exit code, what it said, and the tools it called. */
async function build(
  root: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; said: string; calls: string[] }> {
  const log = join(root, 'calls.log');
  if (existsSync(log)) await unlink(log);
  const { code, said } = await new Promise<{ code: number; said: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin', 'build.mjs'), ...args],
      { cwd: root, env: { PATH: process.env.PATH, ...env } },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, said: `${stdout}${stderr}` });
      },
    );
  });
  const calls = existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n') : [];
  return { code, said, calls };
}

const FULL_BUILD = ['tsc -p .', 'tsc -p console', 'vite build --config console/vite.config.ts'];
/** Saves `path` a moment after the last build (file times advance in clock ticks of a few ms). */
async function edit(path: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  await appendFile(path, '// edited\n');
}

describe('npm start and npm test build only when dist/ is missing or older than its sources (bin/build.mjs)', () => {
  let root: string;

  beforeEach(async () => {
    root = await miniatureCheckout();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('builds a fresh checkout, then not again until a source changes', async () => {
    const first = await build(root);
    expect(first.code, first.said).to.equal(0);
    expect(first.said).to.include('building (no build yet)');
    expect(first.calls).to.deep.equal(FULL_BUILD);

    const again = await build(root);
    expect([again.code, again.calls, again.said]).to.deep.equal([0, [], '']);

    await edit(join(root, 'shared', 'config.ts'));
    const edited = await build(root);
    expect(edited.said).to.include('sources changed since the last build');
    expect(edited.calls).to.deep.equal(FULL_BUILD);
    expect((await build(root)).calls).to.deep.equal([]);

    // A console source counts as much as a service source.
    await edit(join(root, 'console', 'src', 'main.tsx'));
    expect((await build(root)).calls).to.deep.equal(FULL_BUILD);
  });

  it('rebuilds when a source is deleted, when an output is missing, and when asked to', async () => {
    await build(root);
    await new Promise((r) => setTimeout(r, 20));
    // A deletion leaves no file to be newer: it shows in the directory's mtime.
    await unlink(join(root, 'server', 'app.ts'));
    expect((await build(root)).calls).to.deep.equal(FULL_BUILD);

    // tsc's incremental record would leave a deleted output unwritten: such a build starts without it.
    await writeFile(join(root, 'dist', '.tsbuildinfo'), '{}');
    await unlink(join(root, 'dist', 'console', 'index.html'));
    const missing = await build(root);
    expect(missing.said).to.include('dist/console/index.html is missing');
    expect(missing.calls).to.deep.equal(FULL_BUILD);
    expect(existsSync(join(root, 'dist', '.tsbuildinfo'))).to.equal(false);

    await writeFile(join(root, 'dist', '.tsbuildinfo'), '{}');
    const forced = await build(root, ['--force']);
    expect(forced.calls).to.deep.equal(FULL_BUILD);
    expect(existsSync(join(root, 'dist', '.tsbuildinfo'))).to.equal(false);
    // An ordinary rebuild for changed sources keeps it: that is what makes it fast.
    await writeFile(join(root, 'dist', '.tsbuildinfo'), '{}');
    await edit(join(root, 'shared', 'config.ts'));
    expect((await build(root)).calls).to.deep.equal(FULL_BUILD);
    expect(existsSync(join(root, 'dist', '.tsbuildinfo'))).to.equal(true);
  });

  it('a failed build leaves no stamp (the next start builds again), and a source saved during a build is built next time', async () => {
    const failed = await build(root, [], { FAIL_TSC: '1' });
    expect(failed.code).to.equal(2);
    expect(failed.calls).to.deep.equal(['tsc -p .']);
    expect(existsSync(join(root, 'dist', '.build-stamp'))).to.equal(false);
    expect((await build(root)).calls).to.deep.equal(FULL_BUILD);

    // The stamp is the time the build started, so an edit made while it compiled is newer.
    const during = await build(root, ['--force'], { EDIT_DURING_BUILD: '1' });
    expect(during.calls).to.deep.equal(FULL_BUILD);
    const next = await build(root);
    expect(next.said).to.include('sources changed since the last build');
    expect(next.calls).to.deep.equal(FULL_BUILD);
  });
});
