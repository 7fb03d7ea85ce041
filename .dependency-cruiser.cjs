/**
 * The layering of docs/architecture.md, checked on every CI run (`npm run lint`). Each rule names
 * what it keeps apart; there is no baseline of tolerated violations.
 */
const IO = '^(node_modules/(knex|pg|ioredis|bullmq|node-fetch|express|nodemailer)/|shared/(db|redis|queues|store|http|terraform|sandbox|subprocess|repos|read-models|usecases)(/|\\.ts$))';
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Modules form layers; a cycle ties two of them together.', from: {}, to: { circular: true } },
    { name: 'web-not-workers', severity: 'error', comment: 'The web process never loads worker code.', from: { path: '^server/' }, to: { path: '^workers/' } },
    {
      name: 'web-not-processes',
      severity: 'error',
      comment: 'The web process never loads code that spawns processes (Terraform, policy engines, sandboxes).',
      from: { path: '^server/' },
      to: { path: '^shared/(terraform|sandbox|subprocess)(/|\\.ts$)|^node:child_process$|^child_process$' },
    },
    {
      name: 'web-process-spawns-nothing',
      severity: 'error',
      comment: 'Nothing the web entry point loads, however indirectly, spawns processes.',
      from: { path: '^bin/web\\.ts$' },
      to: { path: '^shared/(terraform|sandbox|subprocess)(/|\\.ts$)|^workers/', reachable: true },
    },
    { name: 'workers-not-web', severity: 'error', comment: 'Workers map jobs to use cases; they never load web code.', from: { path: '^workers/' }, to: { path: '^server/' } },
    { name: 'shared-not-processes', severity: 'error', comment: 'Shared code never depends on an entry point or a process type.', from: { path: '^shared/' }, to: { path: '^(server|workers|bin)/' } },
    {
      name: 'domain-pure',
      severity: 'error',
      comment: 'Domain modules are pure rules and state machines: nothing with I/O.',
      from: { path: '^shared/domain/' },
      to: { path: `${IO}|^node:(fs|net|http|https|child_process|dns)` },
    },
    {
      name: 'console-api-only',
      severity: 'error',
      comment: 'The web console reads and writes through the API only: it imports no server, worker or shared code, and nothing imports it.',
      from: { path: '^console/' },
      to: { path: '^(server|workers|shared|bin)/' },
    },
    { name: 'nothing-imports-console', severity: 'error', comment: 'The console is built and served as files, never imported.', from: { pathNot: '^console/' }, to: { path: '^console/' } },
    {
      name: 'repos-sql-only',
      severity: 'error',
      comment: 'Repos and read models hold SQL only: no outbound HTTP, no job queues, no events, no use cases.',
      from: { path: '^shared/(repos|read-models)/' },
      to: { path: '^shared/(queues|http|usecases|notifications|run-tasks|policy|terraform|sandbox|run-lifecycle|run-lifecycle-areas)(/|\\.ts$)|^node_modules/(bullmq|node-fetch|express)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
