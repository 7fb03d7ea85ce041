import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnChild, type ChildHandle, type ExitStatus } from '../subprocess.js';
import type { TerraformSettings, Workdir } from './runner.js';

/**
 * The Terraform commands of one run phase, run in turn by one POSIX shell: `init`, with its output
 * kept in a file; once a line `go` arrives on standard input, the phase's command, whose output
 * is the phase's log; after a plan that succeeded, `show -json` of the saved plan into a file.
 * Each command's exit code is reported on fd 3 as `<step> <code>`. An interrupt reaches Terraform
 * through the process group; the shell only notes it, and runs nothing after the interrupted
 * command. Positional parameters: Terraform's path, the directory for the files, `show` or `-`,
 * then the phase command's arguments (passed as they are, never parsed by the shell).
 */
const SCRIPT = [
  'tf=$1 out=$2 show=$3',
  'shift 3',
  "trap 'stopped=1' INT",
  '"$tf" init -input=false -no-color -reconfigure >"$out/init.out" 2>&1',
  'code=$?',
  'echo "init $code" >&3',
  '[ "$code" -eq 0 ] || exit 0',
  'read -r go || exit 0',
  '[ "$go" = go ] || exit 0',
  '"$tf" "$@"',
  'code=$?',
  'echo "main $code" >&3',
  '[ -z "${stopped-}" ] && [ "$show" = show ] || exit 0',
  // -detailed-exitcode: 0 no changes, 2 changes; anything else failed and there is nothing to show.
  '[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || exit 0',
  '"$tf" show -json plan.tfplan >"$out/plan.json" 2>"$out/show.err"',
  'echo "show $?" >&3',
].join('\n');

/** The attributes of a run that shape its plan (fixed when the run is created). */
export interface PlanOptions {
  is_destroy: boolean;
  refresh_only: boolean;
  refresh: boolean;
  target_addrs: string[];
  replace_addrs: string[];
}

const DEFAULT_PLAN: PlanOptions = { is_destroy: false, refresh_only: false, refresh: true, target_addrs: [], replace_addrs: [] };

/** The `terraform plan` arguments of a phase: the plan is saved where the script's `show` reads it. */
export function planCommand(run: PlanOptions = DEFAULT_PLAN): string[] {
  const args = ['plan', '-input=false', '-no-color', '-detailed-exitcode', '-out=plan.tfplan'];
  if (run.is_destroy) args.push('-destroy');
  if (run.refresh_only) args.push('-refresh-only');
  if (!run.refresh) args.push('-refresh=false');
  for (const t of run.target_addrs) args.push(`-target=${t}`);
  for (const r of run.replace_addrs) args.push(`-replace=${r}`);
  return args;
}

/** A step's exit code and the output it left in its file (init's output, or the JSON plan and show's errors). */
export interface StepResult extends ExitStatus {
  output: string;
}

export interface PhaseProcess {
  /** How init ended; its output is for the log when it failed. */
  init: Promise<StepResult>;
  /** Starts the phase's command (call once the run is claimed and init succeeded). */
  go(): void;
  /** How the phase's command ended. */
  main: Promise<ExitStatus>;
  /** `show -json` of the saved plan (plans only): the JSON in `output` when it succeeded. */
  show: Promise<StepResult>;
  /** Where the phase command's output goes from now on (what came before is passed on first). */
  output(sink: (chunk: Buffer) => void): void;
  /** Signals to the whole process group; `done` when the shell has exited. */
  process: ChildHandle;
}

type Step = 'init' | 'main' | 'show';

/**
 * Starts a phase's commands in `wd`. Spawning from the service's process costs it a fork of its
 * whole memory map, some milliseconds each time; the shell forks each command cheaply instead.
 */
export function spawnPhase(settings: TerraformSettings, wd: Workdir, command: string[], opts: { show: boolean }): PhaseProcess {
  const ended = new Map<Step, (status: ExitStatus) => void>();
  const reported = (step: Step) => new Promise<ExitStatus>((resolve) => ended.set(step, resolve));
  const [initEnded, mainEnded, showEnded] = [reported('init'), reported('main'), reported('show')];
  const withFile = (status: Promise<ExitStatus>, file: (s: ExitStatus) => string) =>
    status.then(async (s) => ({ ...s, output: await readFile(join(wd.root, file(s)), 'utf8').catch(() => '') }));

  let pending: Buffer[] = [];
  let sink: ((chunk: Buffer) => void) | undefined;
  const onOutput = (chunk: Buffer) => (sink ? sink(chunk) : pending.push(chunk));
  let status = '';
  const onFd3 = (chunk: Buffer) => {
    status += chunk.toString('utf8');
    for (let nl = status.indexOf('\n'); nl >= 0; nl = status.indexOf('\n')) {
      const [step, code] = status.slice(0, nl).split(' ');
      status = status.slice(nl + 1);
      ended.get(step as Step)?.({ code: Number(code), signal: null });
    }
  };
  const child = spawnChild('/bin/sh', ['-c', SCRIPT, 'sh', settings.bin, wd.root, opts.show ? 'show' : '-', ...command], {
    cwd: wd.dir,
    env: wd.env,
    group: true,
    input: true,
    onStdout: onOutput,
    onStderr: onOutput,
    onFd3,
    onStartError: (err) => onOutput(Buffer.from(`failed to start terraform: ${err.message}\n`)),
  });
  // A step the shell never reported did not run to its end: it ends as the shell did.
  void child.done.then((exit) => {
    for (const resolve of ended.values()) resolve(exit);
  });
  return {
    init: withFile(initEnded, () => 'init.out'),
    go: () => child.send('go\n'),
    main: mainEnded,
    show: withFile(showEnded, (s) => (s.code === 0 ? 'plan.json' : 'show.err')),
    output(next) {
      sink = next;
      for (const chunk of pending) next(chunk);
      pending = [];
    },
    process: child,
  };
}
