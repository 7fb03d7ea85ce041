#!/usr/bin/env node
// `npm run lint:docs`: the docs stay readable. No table cell over 60 words (a cell that long is a
// section in disguise) and docs/performance.md under 200 lines (history lives in git).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_CELL_WORDS = 60;
const MAX_PERFORMANCE_LINES = 200;

const problems = [];
const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
for (const file of files) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trimStart().startsWith('|')) return;
    // Pipes inside code spans do not separate cells.
    const cells = line.replace(/`[^`]*`/g, (code) => code.replaceAll('|', '/')).split('|');
    for (const cell of cells) {
      const words = cell.trim().split(/\s+/).filter(Boolean).length;
      if (words > MAX_CELL_WORDS)
        problems.push(`${file}:${i + 1}: a table cell of ${words} words (at most ${MAX_CELL_WORDS})`);
    }
  });
  if (file === 'docs/performance.md' && lines.length >= MAX_PERFORMANCE_LINES)
    problems.push(`${file}: ${lines.length} lines (under ${MAX_PERFORMANCE_LINES})`);
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`docs: ${files.length} files, no table cell over ${MAX_CELL_WORDS} words`);
