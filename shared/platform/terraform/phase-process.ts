import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnChild, type ChildHandle, type ExitStatus } from '../subprocess.js';
import { newWorkdirPlace, type TerraformSettings, type Workdir, type WorkdirPlace } from './runner.js';
import { largestFileOf } from '../sandbox/sandbox.js';

/**
 * The Terraform commands of one run phase, run in turn by one POSIX shell: `init`, with its output
 * kept in a file; once a line `go` arrives on standard input, the phase's command, whose output
 * is the phase's log; after a plan that succeeded, `show -json` of the saved plan into a file,
 * and when asked, once show has succeeded, the providers' schemas (`providers schema -json`, which
 * a structured plan rendering needs) into another. Each command's exit code is reported on fd 3
 * as `<step> <code>`. An interrupt reaches Terraform through the process group; the shell only
 * notes it, and runs nothing after the interrupted command (an interrupt during init, even one
 * init survives, keeps the phase's command from starting). Positional parameters: Terraform's
 * path, the directory for the files, `show`, `schemas` (show, then the schemas) or `-`, then the
 * phase command's arguments (quoted: the shell never interprets them).
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
  '[ "$go" = go ] && [ -z "${stopped-}" ] || exit 0',
  '"$tf" "$@"',
  'code=$?',
  'echo "main $code" >&3',
  '[ -z "${stopped-}" ] && [ "$show" != - ] || exit 0',
  // -detailed-exitcode: 0 no changes, 2 changes; anything else failed and there is nothing to show.
  '[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || exit 0',
  '"$tf" show -json plan.tfplan >"$out/plan.json" 2>"$out/show.err"',
  'code=$?',
  'echo "show $code" >&3',
  '[ -z "${stopped-}" ] && [ "$code" -eq 0 ] && [ "$show" = schemas ] || exit 0',
  '"$tf" providers schema -json >"$out/schemas.json" 2>"$out/schemas.err"',
  'echo "schemas $?" >&3',
].join('\n');

/** The attributes of a run that shape its plan (fixed when the run is created). */
export interface PlanOptions {
  is_destroy: boolean;
  refresh_only: boolean;
  refresh: boolean;
  target_addrs: string[];
  replace_addrs: string[];
  /** The workspace's structured run output: the log is Terraform's JSON lines (`-json`). */
  structured_run_output_enabled: boolean;
}

const DEFAULT_PLAN: PlanOptions = {
  is_destroy: false,
  refresh_only: false,
  refresh: true,
  target_addrs: [],
  replace_addrs: [],
  structured_run_output_enabled: false,
};

/** The `terraform plan` arguments of a phase: the plan is saved where the script's `show` reads it. */
export function planCommand(run: PlanOptions = DEFAULT_PLAN): string[] {
  const args = ['plan', '-input=false', '-no-color', '-detailed-exitcode', '-out=plan.tfplan'];
  if (run.structured_run_output_enabled) args.push('-json');
  if (run.is_destroy) args.push('-destroy');
  if (run.refresh_only) args.push('-refresh-only');
  if (!run.refresh) args.push('-refresh=false');
  for (const t of run.target_addrs) args.push(`-target=${t}`);
  for (const r of run.replace_addrs) args.push(`-replace=${r}`);
  return args;
}

/** The `terraform apply` arguments of a phase: the saved plan, with JSON lines for a structured log. */
export const applyCommand = (run: Pick<PlanOptions, 'structured_run_output_enabled'>): string[] => [
  'apply',
  '-input=false',
  '-no-color',
  ...(run.structured_run_output_enabled ? ['-json'] : []),
  'plan.tfplan',
];

/** What a phase runs after `init`: its command, then for a plan `show -json`, and the providers' schemas when asked. */
export interface PhaseCommands {
  command: string[];
  show: boolean;
  schemas?: boolean;
  /** The largest JSON plan read back from `show -json` (bytes); a larger one is left unread (see ShowResult). */
  maxJsonBytes?: number;
}

/** A plan phase for a run: `show -json` after it, and the providers' schemas for a structured run output. */
export const planPhase = (run: PlanOptions): PhaseCommands => ({
  command: planCommand(run),
  show: true,
  schemas: run.structured_run_output_enabled,
});

/** A step's exit code and the output it left in its file (init's output, the JSON plan or schemas, or their errors). */
export interface StepResult extends ExitStatus {
  output: string;
}

/**
 * How `show -json` ended: when it succeeded, the JSON plan's size, and its bytes unless they
 * exceed the phase's maxJsonBytes (then null); when it failed, its errors in `output`. `cut`: the
 * JSON reached the largest file the sandbox lets Terraform write (see largestFileOf), so the file
 * holds only its start, whatever show's exit code says; it is left unread (json null).
 */
export interface ShowResult extends StepResult {
  json: Buffer | null;
  size: number;
  cut: boolean;
}

export interface PhaseProcess {
  /**
   * How init ended, with its output when it failed (for the log); after a success the output is
   * left unread ('').
   */
  init: Promise<StepResult>;
  /** Lets the phase's command start once init has succeeded (at once if it has); call when the run is claimed. */
  go(): void;
  /** How the phase's command ended. */
  main: Promise<ExitStatus>;
  /** `show -json` of the saved plan (plans only): the JSON in `output` when it succeeded. */
  show: Promise<ShowResult>;
  /** `providers schema -json` after show succeeded, for a phase that asked for it (else null): the JSON in `output` when it succeeded. */
  schemas: Promise<StepResult> | null;
  /** Where the phase command's output goes from now on (what came before is passed on first). */
  output(sink: (chunk: Buffer) => void): void;
  /** Signals to the whole process group; `done` when the shell has exited. */
  process: ChildHandle;
}

type Step = 'init' | 'main' | 'show' | 'schemas';

/** Where a shell's output and step reports go once a phase has it. */
interface Sinks {
  output(chunk: Buffer): void;
  fd3(chunk: Buffer): void;
  startError(err: Error): void;
}

const IDLE: Sinks = { output: () => undefined, fd3: () => undefined, startError: () => undefined };

/**
 * A phase's shell, started with an empty environment in `/`. It waits for one line: the path of a
 * file of shell words (built by setupWords) that enter the working directory, set the
 * environment and the script's positional parameters; it sources that file, then runs the phase
 * script. The line is all it reads before the script; `read` takes standard input a byte at a
 * time, so `go` stays for the script. The words are passed in a file, which the shell reads in
 * blocks, because a line of them (some 500 bytes) took about 0.3 ms to read byte by byte.
 */
const BOOT = ['IFS= read -r setup || exit 125', '. "$setup" || exit 125', SCRIPT].join('\n');

interface Shell {
  process: ChildHandle;
  sinks: Sinks;
  exited: boolean;
}

/** Starts a phase's shell: in a sandbox on `place` when given, else directly. */
function startShell(sinks: Sinks, sandboxed?: { settings: TerraformSettings; place: WorkdirPlace }): Shell {
  const shell: Shell = { sinks, exited: false } as Shell;
  const io = {
    group: true,
    input: true,
    onStdout: (c: Buffer) => shell.sinks.output(c),
    onStderr: (c: Buffer) => shell.sinks.output(c),
    onFd3: (c: Buffer) => shell.sinks.fd3(c),
    onStartError: (err: Error) => shell.sinks.startError(err),
  };
  shell.process = sandboxed
    ? sandboxed.settings.sandbox.spawn({
        bin: '/bin/sh',
        args: ['-c', BOOT, 'sh'],
        dir: sandboxed.place.root,
        cwd: '/',
        env: {},
        user: sandboxed.place.user,
        ...io,
      })
    : spawnChild('/bin/sh', ['-c', BOOT, 'sh'], { cwd: '/', env: {}, ...io });
  void shell.process.done.then(() => (shell.exited = true));
  return shell;
}

const REFILL_DELAY_MS = 20;

/** A sandbox started ahead on an empty working directory of its own, its shell waiting for a phase. */
interface Seat {
  /** The settings it was started with: a seat serves phases of those only. */
  settings: TerraformSettings;
  place: WorkdirPlace;
  shell: Shell;
}

/**
 * One phase's shell kept started ahead of the next phase (one SpareShell per worker process, see
 * its deps), taken by that phase and started again a little later, while the phase's Terraform
 * runs and the worker is idle (docs/design-for-speed.md, "The spare shell"). Without a sandbox it
 * is a plain shell, with an empty working directory made ahead beside it. With one, it is a whole
 * sandbox (bubblewrap, and in `egress` mode its network namespace with user-mode networking and
 * the egress rules loaded) started on a new empty working directory, which the phase's
 * prepareWorkdir then fills (see place): the sandbox sees the files written into its directory
 * after it started, and nothing of the run is in it before. A seat serves one phase only. Spares
 * do not keep the service's process alive and end when it does.
 */
export class SpareShell {
  private spare: Shell | undefined;
  private seat: Seat | undefined;
  /** An empty working directory made ahead for an unsandboxed phase, with the settings it was made for. */
  private empty: { settings: TerraformSettings; place: WorkdirPlace } | undefined;
  /** Seats whose directories were handed to a phase's prepareWorkdir, by directory, until spawnPhase takes their shell. */
  private readonly placed = new Map<string, Shell>();
  private refilling: NodeJS.Timeout | undefined;
  /** What the next refill starts: a shell, a seat, a directory (each does nothing when one is ready). */
  private readonly starts = new Set<() => void>();
  private closed = false;

  private refill(start: () => void) {
    if (this.closed) return;
    this.starts.add(start);
    this.refilling ??= setTimeout(() => {
      this.refilling = undefined;
      const starts = [...this.starts];
      this.starts.clear();
      for (const begin of starts) begin();
    }, REFILL_DELAY_MS).unref();
  }

  /** The spare shell for an unsandboxed phase with `sinks` (a new one when there is none), and a new spare soon after. */
  take(sinks: Sinks): Shell {
    const shell = this.spare && !this.spare.exited ? this.spare : undefined;
    this.spare = undefined;
    this.refill(() => {
      if (this.spare) return;
      this.spare = startShell(IDLE);
      this.spare.process.hold(false);
    });
    if (!shell) return startShell(sinks);
    shell.sinks = sinks;
    shell.process.hold(true);
    return shell;
  }

  /**
   * Where a phase's working directory goes: the directory of the sandbox started ahead, or
   * undefined (prepareWorkdir makes one, and spawnPhase starts its sandbox) when none is ready. A
   * new seat is started soon after either way. The place's release stops its sandbox if the
   * directory is removed before spawnPhase took it. Without a sandbox, the empty directory made
   * ahead (see emptyPlace).
   */
  place(settings: TerraformSettings): WorkdirPlace | undefined {
    if (settings.sandbox.settings.mode === 'none') return this.emptyPlace(settings);
    const seat = this.seat;
    this.seat = undefined;
    this.refill(() => {
      if (this.seat) return;
      let place: WorkdirPlace;
      try {
        place = newWorkdirPlace(settings);
      } catch {
        // No directory now (a full disk, say): the next phase makes its own and says why it cannot.
        return;
      }
      const shell = startShell(IDLE, { settings, place });
      shell.process.hold(false);
      this.seat = { settings, place, shell };
    });
    if (!seat) return undefined;
    if (seat.shell.exited || seat.settings !== settings) {
      // Its sandbox failed to start (why shows when the phase's own fails too), or was made for
      // other settings; its directory is still empty.
      seat.shell.process.kill();
      void rm(seat.place.root, { recursive: true, force: true });
      return undefined;
    }
    const { root } = seat.place;
    this.placed.set(root, seat.shell);
    return {
      ...seat.place,
      release: () => {
        this.placed.get(root)?.process.kill();
        this.placed.delete(root);
      },
    };
  }

  /**
   * The empty directory made ahead for an unsandboxed phase (undefined when none is ready, or it was
   * made for other settings: prepareWorkdir makes one), and a new one soon after.
   */
  private emptyPlace(settings: TerraformSettings): WorkdirPlace | undefined {
    const ready = this.empty;
    this.empty = undefined;
    this.refill(() => {
      if (this.empty) return;
      try {
        this.empty = { settings, place: newWorkdirPlace(settings) };
      } catch {
        // No directory now (a full disk, say): the next phase makes its own and says why it cannot.
      }
    });
    if (ready && ready.settings !== settings) void rm(ready.place.root, { recursive: true, force: true });
    return ready?.settings === settings ? ready.place : undefined;
  }

  /** Stops what was started ahead and starts nothing more (the worker is stopping); a phase under way keeps its shell. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.refilling);
    this.starts.clear();
    const ahead = [this.spare, this.seat?.shell, ...this.placed.values()].filter((s): s is Shell => !!s);
    const unused = [this.seat?.place.root, this.empty?.place.root].filter((root): root is string => !!root);
    this.spare = this.seat = this.empty = undefined;
    this.placed.clear();
    for (const shell of ahead) shell.process.kill();
    await Promise.all(ahead.map((shell) => shell.process.done));
    await Promise.all(unused.map((root) => rm(root, { recursive: true, force: true })));
  }

  /** The shell of the seat whose directory `root` is, for its phase (undefined when there is none, or it has ended). */
  claim(root: string, sinks: Sinks): Shell | undefined {
    const shell = this.placed.get(root);
    this.placed.delete(root);
    if (!shell || shell.exited) return undefined;
    shell.sinks = sinks;
    shell.process.hold(true);
    return shell;
  }
}

/** A word the shell reads back as `s` itself. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A name the shell can export. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The shell words that set a phase up: its directory, its environment (nothing else), the script's
 * parameters (Terraform's path first). A variable whose name the shell cannot export (one starting
 * with a digit) is legal in an environment all the same: Terraform is then run through `env`,
 * which sets it, by a function of the name the script calls instead of Terraform's path.
 */
function setupWords(cwd: string, env: NodeJS.ProcessEnv, params: string[]): string {
  const vars = Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined);
  for (const [name] of vars)
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`not an environment variable name: ${name}`);
  const exported = vars.filter(([k]) => SHELL_NAME.test(k));
  const passed = vars.filter(([k]) => !SHELL_NAME.test(k));
  const exports = exported.length ? ` && export ${exported.map(([k, v]) => `${k}=${quote(v)}`).join(' ')}` : '';
  const [bin, ...rest] = params;
  const wrapper = passed.length
    ? ` && rls_terraform() { env ${passed.map(([k, v]) => quote(`${k}=${v}`)).join(' ')} ${quote(bin)} "$@"; }`
    : '';
  const args = passed.length ? ['rls_terraform', ...rest] : params;
  return `cd ${quote(cwd)}${exports}${wrapper} && set -- ${args.map(quote).join(' ')}\n`;
}

/** Writes a phase's setup words into its directory, readable by the sandbox's user only; the shell is sent the file's path as one line. */
function writeSetup(settings: TerraformSettings, wd: Workdir, words: string): string {
  const path = join(wd.root, 'phase-setup.sh');
  if (path.includes('\n')) throw new Error('the working directory path contains a newline');
  writeFileSync(path, words, { mode: 0o600 });
  settings.sandbox.ownFile(path, wd.user);
  return `${path}\n`;
}

/**
 * JSON plans up to this size are read synchronously once `show` has written them (most are a few
 * kilobytes): that takes microseconds, where the asynchronous stat and read wait for the thread
 * pool and the event loop several times on the way from the plan to `planned`.
 */
const SYNC_READ_MAX_BYTES = 256 * 1024;

/**
 * Starts a phase's commands in `wd`: `init` at once, the phase's command on `go`. Its shell is
 * `spare`'s when given: the spare plain shell without a sandbox, and with one the sandbox started
 * ahead on `wd`'s directory when prepareWorkdir was given SpareShell.place.
 */
export function spawnPhase(
  settings: TerraformSettings,
  wd: Workdir,
  phase: PhaseCommands,
  spare?: SpareShell,
): PhaseProcess {
  const ended = new Map<Step, (status: ExitStatus) => void>();
  const reported = (step: Step) => new Promise<ExitStatus>((resolve) => ended.set(step, resolve));
  const [initEnded, mainEnded, showEnded, schemasEnded] = [
    reported('init'),
    reported('main'),
    reported('show'),
    reported('schemas'),
  ];
  /** A step's status with the output of the file `file` names for it; '' when it names none. */
  const withFile = (status: Promise<ExitStatus>, file: (s: ExitStatus) => string | null) =>
    status.then(async (s) => {
      const name = file(s);
      return { ...s, output: name === null ? '' : await readFile(join(wd.root, name), 'utf8').catch(() => '') };
    });

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
  const after = !phase.show ? '-' : phase.schemas ? 'schemas' : 'show';
  const setup = writeSetup(settings, wd, setupWords(wd.dir, wd.env, [settings.bin, wd.root, after, ...phase.command]));
  const sinks: Sinks = {
    output: onOutput,
    fd3: onFd3,
    startError: (err) => onOutput(Buffer.from(`failed to start terraform: ${err.message}\n`)),
  };
  const unsandboxed = settings.sandbox.settings.mode === 'none';
  const largestFile = largestFileOf(settings.sandbox.settings);
  const shell = unsandboxed
    ? (spare?.take(sinks) ?? startShell(sinks))
    : (spare?.claim(wd.root, sinks) ?? startShell(sinks, { settings, place: wd }));
  const child = shell.process;
  child.send(setup);
  // A step the shell never reported did not run to its end: it ends as the shell did.
  void child.done.then((exit) => {
    for (const resolve of ended.values()) resolve(exit);
  });
  return {
    // Read only when init failed: a success's output is kept by nobody, and reading it would take the
    // thread pool and the event loop while the shell starts the phase's command.
    init: withFile(initEnded, (s) => (s.code === 0 ? null : 'init.out')),
    go: () => child.send('go\n'),
    main: mainEnded,
    show: showEnded.then(async (s): Promise<ShowResult> => {
      const path = join(wd.root, 'plan.json');
      // The size first, from the file's metadata: a JSON plan that reached the file-size limit is
      // incomplete (Terraform may even exit 0 after its write failed), and is never read.
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (size > 0 && size >= largestFile) return { ...s, output: '', json: null, size, cut: true };
      if (s.code !== 0)
        return {
          ...s,
          output: await readFile(join(wd.root, 'show.err'), 'utf8').catch(() => ''),
          json: null,
          size: 0,
          cut: false,
        };
      // Not written (a phase without show reports the shell's exit here) or unreadable: show failed.
      try {
        const json =
          size > (phase.maxJsonBytes ?? Infinity)
            ? null
            : size <= SYNC_READ_MAX_BYTES
              ? readFileSync(path)
              : await readFile(path);
        return { ...s, output: '', json, size, cut: false };
      } catch (err) {
        return {
          code: 1,
          signal: s.signal,
          output: `the JSON plan could not be read: ${(err as Error).message}`,
          json: null,
          size: 0,
          cut: false,
        };
      }
    }),
    schemas:
      after === 'schemas' ? withFile(schemasEnded, (s) => (s.code === 0 ? 'schemas.json' : 'schemas.err')) : null,
    output(next) {
      sink = next;
      for (const chunk of pending) next(chunk);
      pending = [];
    },
    process: child,
  };
}
