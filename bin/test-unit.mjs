#!/usr/bin/env node
// `npm run test:unit`: the unit tests in seconds. esbuild strips the sources' types into dist/fast/
// (no type check: `npm run build` and `npm run lint` do that), then mocha runs the tests there.
// Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'dist', 'fast');
// What the unit tests import; nothing else is transpiled.
const SOURCES = ['shared', 'server', 'test/unit', 'test/helpers'];

function tsFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: SOURCES.flatMap((dir) => tsFiles(join(root, dir))),
  outdir: OUT,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const tests = `${relative(root, OUT)}/test/unit/**/*.test.js`;
const run = spawnSync(
  process.execPath,
  [mocha, '--no-config', '--timeout', '20000', '--exit', tests, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
