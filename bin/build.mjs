#!/usr/bin/env node
// `npm run build`, and the build step of `npm start` and `npm test`: compiles the service (tsc),
// checks the console's types and bundles it (vite) into dist/, but only when dist/ is missing or
// older than its sources, so a start of a built checkout does not spend a minute recompiling.
// `--force` builds regardless. Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.build-stamp');

// Everything a build reads. Directories count too: a deleted or renamed file changes its
// directory's mtime, which a walk over the remaining files alone would miss.
const SOURCE_DIRS = ['server', 'shared', 'workers', 'bin', 'console', 'migrations', 'test', 'bench'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'node_modules/.package-lock.json'];
// What a start needs from a build; a build that lost one of them is rebuilt.
const OUTPUTS = ['dist/bin/all.js', 'dist/console/index.html'];

/** The newest modification time (ms) under `path`, skipping installed packages. */
function newestMtime(path) {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return 0;
  }
  let newest = info.mtimeMs;
  if (info.isDirectory()) {
    for (const entry of readdirSync(path)) {
      if (entry !== 'node_modules') newest = Math.max(newest, newestMtime(join(path, entry)));
    }
  }
  return newest;
}

/** Why a build is needed, or null when dist/ is newer than every source. */
function staleReason() {
  if (!existsSync(STAMP)) return 'no build yet';
  const missing = OUTPUTS.find((p) => !existsSync(join(root, p)));
  if (missing) return `${missing} is missing`;
  const built = statSync(STAMP).mtimeMs;
  const newest = Math.max(...[...SOURCE_DIRS, ...SOURCE_FILES].map((p) => newestMtime(join(root, p))));
  return newest >= built ? 'sources changed since the last build' : null;
}

function run(tool, args) {
  const result = spawnSync(join(root, 'node_modules', '.bin', tool), args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const reason = process.argv.includes('--force') ? 'asked to' : staleReason();
if (reason === null) process.exit(0);
process.stderr.write(`building (${reason})\n`);
// The stamp is made as the build starts and put in place when it has succeeded, so its mtime is
// the start in the filesystem's own clock: a source saved while the build runs is newer, and the
// next start builds again. A failed build leaves no stamp.
mkdirSync(join(root, 'dist'), { recursive: true });
rmSync(STAMP, { force: true });
// tsc's incremental record would skip sources whose output was deleted by hand: a forced build,
// or one for a missing output, starts without it.
if (reason === 'asked to' || reason.endsWith(' is missing'))
  rmSync(join(root, 'dist', '.tsbuildinfo'), { force: true });
writeFileSync(`${STAMP}.new`, `build started ${new Date().toISOString()}\n`);
run('tsc', ['-p', '.']);
run('tsc', ['-p', 'console']);
run('vite', ['build', '--config', 'console/vite.config.ts']);
renameSync(`${STAMP}.new`, STAMP);
