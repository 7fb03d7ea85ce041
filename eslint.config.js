// Lint rules that keep the layering of docs/architecture.md honest where imports alone cannot:
// no `any`, no `as never` escape hatch, no SQL in handlers or workers, and none in a feature's
// commands, which open transactions but leave the statements to its repo and queries files (the run
// engine excepted). Run with `npm run lint` (with the import boundaries of .dependency-cruiser.cjs).
import tseslint from 'typescript-eslint';

const NO_AS_NEVER = {
  selector: 'TSAsExpression > TSNeverKeyword',
  message: 'No `as never`: type the value (see shared/platform/db.ts for JSON and SQL values).',
};
const NO_SQL = [
  {
    selector: 'CallExpression[callee.type="Identifier"][callee.name=/^(db|tx|trx|q)$/]',
    message: 'No SQL here: queries belong in the repo (writes) or queries (responses) files of a feature.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^(transaction|raw)$/]',
    message: 'No SQL here: transactions belong in the commands of a feature, queries in its repo or queries files.',
  },
  {
    selector: 'CallExpression[callee.object.property.name="db"][callee.property.name=/^(transaction|raw)$/]',
    message: 'No SQL here.',
  },
  {
    selector: 'CallExpression[callee.type="MemberExpression"][callee.property.name="db"]',
    message: 'No SQL here: queries belong in the repo or queries files of a feature.',
  },
];
// A feature's commands open transactions but leave the statements to its repo and queries files.
const NO_SQL_IN_COMMANDS = NO_SQL.filter((r) => !r.selector.includes('transaction')).concat([
  {
    selector: 'CallExpression[callee.property.name="raw"]',
    message: 'No SQL here: raw statements belong in the repo or queries files of a feature.',
  },
]);

// JSON:API pointers are the HTTP layer's: errors in shared/ name their field and server/errors.ts writes the pointer.
const POINTER_MESSAGE = 'No JSON:API pointer here: name the field (see Field in shared/platform/errors.ts).';
const NO_POINTERS = [
  { selector: 'Literal[value=/^.data.(attributes|relationships)/]', message: POINTER_MESSAGE },
  { selector: 'Literal[value="/data"]', message: POINTER_MESSAGE },
  { selector: 'TemplateElement[value.raw=/^.data.(attributes|relationships)/]', message: POINTER_MESSAGE },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  {
    // The console's React sources (console/) are .tsx: the same rules.
    files: ['**/*.ts', 'console/**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': ['error', NO_AS_NEVER],
    },
  },
  {
    files: ['server/**/*.ts', 'workers/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_NEVER, ...NO_SQL] },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/schemas/**'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_NEVER, ...NO_POINTERS] },
  },
  {
    files: ['shared/*/**/*.ts'],
    ignores: [
      'shared/platform/**',
      'shared/schemas/**',
      'shared/**/*repo.ts',
      'shared/**/*queries.ts',
      'shared/runs/engine.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', NO_AS_NEVER, ...NO_POINTERS, ...NO_SQL_IN_COMMANDS] },
  },
);
