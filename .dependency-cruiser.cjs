/**
 * The layering of docs/architecture.md, checked on every CI run (`npm run lint`). Each rule names
 * what it keeps apart; there is no baseline of tolerated violations. `test/lint/violations.mjs`
 * breaks each rule once on purpose and fails when a rule stops firing.
 */
// Pure files: state machines, value rules and the run's gates, which hold no I/O.
const PURE =
  '/(rules|machine|[^/]+\\.rules|[^/]+\\.machine)\\.ts$|^shared/runs/gates\\.ts$|^shared/platform/(machine|ids|errors)\\.ts$';
// What a feature shows the rest of the code: its commands (index.ts) and its reads (queries).
const FACE = '^shared/[^/]+/(index|engine|queries|[^/]+\\.queries)\\.ts$';
const FEATURE = '^shared/(?!platform/|schemas/)[^/]+/';
// Files that hold SQL and nothing else.
const SQL_FILES = '^shared/[^/]+/(repo|queries|[^/]+\\.repo|[^/]+\\.queries)\\.ts$';
// A feature's commands: every file of a feature that is not SQL, pure or its face.
const COMMANDS =
  '^shared/(?!platform/|schemas/)[^/]+/(?!index\\.ts$)(?![^/]*(repo|queries|rules|machine)\\.ts$)[^/]+\\.ts$';
const SPAWNS = '^shared/platform/(terraform|sandbox)/|^shared/platform/subprocess\\.ts$|^shared/vcs/git\\.ts$';
const DATABASE = '^shared/platform/(db\\.ts|db/|leases\\.ts|store/)';
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'Modules form layers; a cycle ties two of them together. Types are erased when compiled, so a cycle closed only by a type import (every feature names the Runtime type) does not count.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'features-through-faces',
      severity: 'error',
      comment:
        'A feature calls another through its index.ts only; its pure state machines and rules are vocabulary any feature may read, and types may come from anywhere.',
      from: { path: '^shared/(?!platform/|schemas/)([^/]+)/' },
      to: {
        path: FEATURE,
        pathNot: ['^shared/$1/', '^shared/[^/]+/index\\.ts$', PURE],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'web-not-workers',
      severity: 'error',
      comment: 'The web process never loads worker code.',
      from: { path: '^server/' },
      to: { path: '^workers/' },
    },
    {
      name: 'web-not-processes',
      severity: 'error',
      comment: 'The web process never loads code that spawns processes (Terraform, policy engines, sandboxes, git).',
      from: { path: '^server/' },
      to: { path: `${SPAWNS}|^node:child_process$|^child_process$` },
    },
    {
      name: 'web-process-spawns-nothing',
      severity: 'error',
      comment: 'Nothing the web entry point loads, however indirectly, spawns processes.',
      from: { path: '^bin/web\\.ts$' },
      to: { path: `${SPAWNS}|^workers/`, reachable: true },
    },
    {
      name: 'workers-not-web',
      severity: 'error',
      comment: 'Workers map jobs to commands; they never load web code.',
      from: { path: '^workers/' },
      to: { path: '^server/' },
    },
    {
      name: 'shared-not-processes',
      severity: 'error',
      comment: 'Shared code never depends on an entry point or a process type.',
      from: { path: '^shared/' },
      to: { path: '^(server|workers|bin)/' },
    },
    {
      name: 'entries-through-faces',
      severity: 'error',
      comment:
        'Handlers and workers call a feature through its index.ts (commands), its queries (reads) or, for workers, its engine.ts (the processes it runs); types may come from anywhere.',
      from: { path: '^(server|workers)/' },
      to: { path: FEATURE, pathNot: FACE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entries-platform-edge',
      severity: 'error',
      comment:
        "Handlers and workers use the platform's config, errors and logger, and the two contracts of a process's edge: the queues (job names and payloads, which workers take and Bull Board shows) and the API's rate limits (which the HTTP layer enforces). The rest they reach through features.",
      from: { path: '^(server|workers)/' },
      to: {
        path: '^shared/platform/',
        pathNot: '^shared/platform/(config|errors|logger|queues|rate-limits)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'entries-no-database',
      severity: 'error',
      comment: 'Handlers and workers reach the database, its leases and the object store only through features.',
      from: { path: '^(server|workers)/' },
      to: { path: DATABASE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pure-imports-pure',
      severity: 'error',
      comment: 'State machines, value rules and gates import only other pure files (and node:crypto or node:util).',
      from: { path: PURE },
      to: { pathNot: `${PURE}|^(node:)?(crypto|util)$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'platform-below-features',
      severity: 'error',
      comment:
        'The platform (config, database, queues, sandbox, Terraform...) knows no feature: it may use their pure rules and types only.',
      from: { path: '^shared/platform/' },
      to: { path: '^shared/(?!platform/)', pathNot: PURE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sql-files-sql-only',
      severity: 'error',
      comment: 'Repos and queries hold SQL only: no commands, no job queues, no outbound HTTP, no processes.',
      from: { path: SQL_FILES },
      to: {
        path: `${COMMANDS}|^shared/platform/(queues|outbound)\\.ts$|${SPAWNS}|^node_modules/(bullmq|node-fetch|express)/`,
      },
    },
    {
      name: 'console-api-only',
      severity: 'error',
      comment:
        'The web console reads and writes through the API only: it imports no server, worker or shared code, and nothing imports it.',
      from: { path: '^console/' },
      to: { path: '^(server|workers|shared|bin)/' },
    },
    {
      name: 'nothing-imports-console',
      severity: 'error',
      comment: 'The console is built and served as files, never imported.',
      from: { pathNot: '^console/' },
      to: { path: '^console/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
