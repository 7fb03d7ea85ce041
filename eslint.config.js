// Lint rules that keep the layering of docs/architecture.md honest where imports alone cannot:
// no `any`, no `as never` escape hatch, and no SQL in handlers or workers (it lives in repos and
// read models). Run with `npm run lint` (with the import boundaries of .dependency-cruiser.cjs).
import tseslint from 'typescript-eslint';

const NO_AS_NEVER = { selector: 'TSAsExpression > TSNeverKeyword', message: 'No `as never`: type the value (see shared/db.ts for JSON and SQL values).' };
const NO_SQL = [
  { selector: 'CallExpression[callee.type="Identifier"][callee.name=/^(db|tx|trx|q)$/]', message: 'No SQL here: queries belong in shared/repos (writes) or shared/read-models (responses).' },
  { selector: 'CallExpression[callee.property.name=/^(transaction|raw)$/]', message: 'No SQL here: transactions belong in use cases, queries in shared/repos or shared/read-models.' },
  { selector: 'CallExpression[callee.object.property.name="db"][callee.property.name=/^(transaction|raw)$/]', message: 'No SQL here.' },
  { selector: 'CallExpression[callee.type="MemberExpression"][callee.property.name="db"]', message: 'No SQL here: queries belong in shared/repos or shared/read-models.' },
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
);
