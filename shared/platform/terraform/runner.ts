import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { extract, UnpackSync } from 'tar';
import { safeEntryPath } from '../archive.js';
import { processAlive, spawnChild, type ChildHandle, type ExitStatus } from '../subprocess.js';
import { ensureWorkRoot } from './work-root.js';
import { SANDBOX_PATH, type Sandbox, type SandboxUser } from '../sandbox/sandbox.js';
import { isTerraformIdentifier } from '../../variables/rules.js';
import { sshKeyFileContent } from '../../ssh-keys/rules.js';

export interface TerraformSettings {
  bin: string;
  /** Operator's CLI configuration (e.g. a provider mirror), passed as TF_CLI_CONFIG_FILE. */
  cliConfigFile: string | null;
  /** Where every Terraform process that reads user configuration runs. */
  sandbox: Sandbox;
  /** The most entries a configuration archive may unpack to. */
  maxArchiveEntries: number;
  /** Where this deployment's run working directories go (see deploymentWorkRoot), made on first use. */
  workRoot: string;
}

export type { ExitStatus, ChildHandle as TerraformProcess } from '../subprocess.js';

/**
 * The environment Terraform gets: nothing of the service's own (no database URL, keys or
 * tokens), only what the CLI needs to run unattended. A run phase adds its own run token and CLI
 * configuration (see WorkdirSources.service).
 */
export function terraformEnv(
  settings: Pick<TerraformSettings, 'cliConfigFile'> & { sandbox?: Sandbox },
  home: string,
): NodeJS.ProcessEnv {
  const sandboxed = settings.sandbox && settings.sandbox.settings.mode !== 'none';
  return {
    PATH: sandboxed ? SANDBOX_PATH : (process.env.PATH ?? SANDBOX_PATH),
    HOME: home,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    ...(settings.cliConfigFile ? { TF_CLI_CONFIG_FILE: settings.cliConfigFile } : {}),
  };
}

/**
 * Runs one Terraform command in `wd`'s sandbox, streaming stdout and stderr to `onOutput`.
 * Terraform leads a process group of its own, so its signals also reach whatever it started
 * (provisioner commands).
 */
export function spawnTerraform(
  settings: TerraformSettings,
  args: string[],
  wd: Workdir,
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void,
): ChildHandle {
  return settings.sandbox.spawn({
    bin: settings.bin,
    args,
    dir: wd.root,
    cwd: wd.dir,
    env: wd.env,
    user: wd.user,
    group: true,
    onStdout: (c) => onOutput?.(c, 'stdout'),
    onStderr: (c) => onOutput?.(c, 'stderr'),
    onStartError: (err) => onOutput?.(Buffer.from(`failed to start terraform: ${err.message}\n`), 'stderr'),
  });
}

/**
 * Runs a command of the service's own (never one that reads user configuration, such as
 * `version`) outside any sandbox, to completion; returns its exit status and captured output.
 */
export async function runTerraform(
  settings: Pick<TerraformSettings, 'bin'>,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<ExitStatus & { output: string }> {
  const parts: Buffer[] = [];
  const status = await spawnChild(settings.bin, args, {
    cwd,
    env,
    onStdout: (c) => parts.push(c),
    onStderr: (c) => parts.push(c),
  }).done;
  return { ...status, output: Buffer.concat(parts).toString('utf8') };
}

// Makes Terraform keep state in a local file the worker provides, whatever cloud or backend
// block the configuration declares (a backend in an override file replaces either). The path is
// relative: a saved plan records its backend, and the apply runs in another temporary directory.
const STATE_FILE = 'zz_rls_state.tfstate';
const BACKEND_OVERRIDE = `terraform {\n  backend "local" {\n    path = "${STATE_FILE}"\n  }\n}\n`;

export interface Workdir {
  root: string;
  /** Where Terraform runs: the unpacked configuration plus the workspace's working directory. */
  dir: string;
  statePath: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The user its sandboxes run as; the directory belongs to it. */
  user: SandboxUser;
  /** Removes the directory, unless it was kept. */
  cleanup(): Promise<void>;
  /** Leaves the directory in place at cleanup: it holds a state stored nowhere else. The leftover clean-up takes it once this process is gone. */
  keep(): void;
}

/**
 * Archives up to this size (compressed) are unpacked in one synchronous pass: a configuration of
 * a few files takes about a millisecond that way, where the streaming unpacker needs a dozen
 * turns of the event loop, each waiting behind whatever else the process is doing.
 */
const SYNC_UNPACK_MAX_BYTES = 256 * 1024;

/**
 * What a small archive is inflated to at most in memory before it is unpacked in one pass; one
 * that inflates to more is unpacked as a stream.
 */
const SYNC_INFLATE_MAX_BYTES = 8 * 1024 * 1024;

/** The unpacker refuses a gzip stream that inflates to more than this many times its size (a gzip bomb). */
const MAX_INFLATE_RATIO = 1000;

/**
 * A small archive's tar bytes: inflated here when it is gzip, as it is when it is not. On a
 * configuration of one file, node's zlib in one call and the unpacker on the tar took 0.42 ms
 * where the unpacker inflating it itself took 0.63 ms. Null when it would inflate past
 * SYNC_INFLATE_MAX_BYTES or MAX_INFLATE_RATIO times its size, or is not valid gzip: the streaming
 * unpacker then reads it, and refuses it as it always did when it is a bomb or broken.
 */
function inflatedSmall(archive: Buffer): Buffer | null {
  if (archive[0] !== 0x1f || archive[1] !== 0x8b) return archive;
  try {
    return gunzipSync(archive, {
      maxOutputLength: Math.min(SYNC_INFLATE_MAX_BYTES, archive.length * MAX_INFLATE_RATIO),
    });
  } catch {
    return null;
  }
}

/**
 * Unpacks a .tar.gz into `cwd`, skipping entries whose path would leave it, and failing past
 * `maxEntries` entries. Returns how many entries it had.
 */
async function unpack(archive: AsyncIterable<Buffer>, cwd: string, maxEntries: number): Promise<number> {
  let entries = 0;
  const filter = (path: string) => {
    if (++entries > maxEntries)
      throw new Error(`the configuration archive has more than ${maxEntries} entries (MAX_ARCHIVE_ENTRIES)`);
    return safeEntryPath(path);
  };
  // The entries' owners and times in the archive mean nothing here: the directory is handed to the
  // sandbox's user afterwards (see prepareWorkdir), and Terraform reads no file times. Left at their
  // defaults, a root process would change each entry's owner and times with two calls more per entry.
  const opts = { cwd, strict: true, filter, preserveOwner: false, noMtime: true };
  const chunks = archive[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  while (size <= SYNC_UNPACK_MAX_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      const whole = Buffer.concat(head);
      const tar = inflatedSmall(whole);
      if (tar) new UnpackSync(opts).end(tar);
      else await pipeline(Readable.from([whole]), extract(opts));
      return entries;
    }
    head.push(next.value);
    size += next.value.length;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  await pipeline(all(), extract(opts));
  return entries;
}

const WORKDIR_PREFIX = 'rls-run-';

/**
 * Removes the working directories that this deployment's processes on this host left in `dir`,
 * its work root (see deploymentWorkRoot), when they died (a `kill -9` leaves configuration, state
 * and plan files behind): those whose process id is no longer running. A state file Terraform
 * left in one (an apply cut short) is first kept in `recoveryDir` (readable by the service's user
 * only) as `<directory>.tfstate`, for an operator to push. A directory whose state cannot be kept
 * (the recovery directory is full or read-only) stays, so its state is not lost, and the others
 * are still removed: it is listed in `failed`, and the next call tries it again. Returns the
 * directories removed, the states kept and those failures.
 */
export async function removeAbandonedWorkdirs(
  recoveryDir: string,
  dir: string,
): Promise<{ removed: number; kept: string[]; failed: { path: string; error: string }[] }> {
  const names = await readdir(ensureWorkRoot(dir));
  const result = { removed: 0, kept: [] as string[], failed: [] as { path: string; error: string }[] };
  for (const name of names) {
    const pid = Number(/^rls-run-(\d+)-/.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    const root = join(dir, name);
    try {
      const kept = await keepLeftState(root, recoveryDir, name);
      await rm(root, { recursive: true, force: true });
      if (kept) result.kept.push(kept);
      result.removed++;
    } catch (err) {
      result.failed.push({ path: root, error: String(err) });
    }
  }
  return result;
}

/** Copies the state file a dead process's directory holds, if any, into `recoveryDir`; its path there. A partial copy is removed. */
async function keepLeftState(root: string, recoveryDir: string, name: string): Promise<string | null> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const state = entries.find((e) => e.isFile() && e.name === STATE_FILE);
  const content = state ? await readFile(join(state.parentPath, state.name)).catch(() => null) : null;
  if (!content?.length) return null;
  await mkdir(recoveryDir, { recursive: true, mode: 0o700 });
  const kept = join(recoveryDir, `${name}.tfstate`);
  try {
    await writeFile(kept, content, { mode: 0o600 });
  } catch (err) {
    await rm(kept, { force: true });
    throw err;
  }
  return kept;
}

/** What a working directory is made of. */
export interface WorkdirSources {
  /** The configuration's .tar.gz, as the store gives it (null: it is missing). */
  archive: Readable | null;
  workingDirectory: string;
  state?: Buffer | null;
  /** Terraform variables: HCL expressions by name, each written to a file of its own. */
  variables?: { key: string; value: string }[];
  /** Environment variables of the phase; the service's own (PATH, HOME, Terraform's switches) win. */
  environment?: Record<string, string>;
  /**
   * How the phase's Terraform reaches this API as its run (see runServiceAccess): its blocks are
   * added to the run's own CLI configuration (after the operator's TERRAFORM_CLI_CONFIG), and its
   * variables win over the workspace's.
   */
  service?: { cliConfig: string; env: Record<string, string> };
  /** The workspace's SSH private key, for git module sources over ssh (see sshKeyEnv); null or absent: none. */
  sshKey?: string | null;
}

/**
 * Where a working directory goes: an empty private directory and the sandbox user it belongs to.
 * Made by prepareWorkdir, or ahead of the phase with a sandbox already started on it (see
 * SpareShell), which `release` stops when the directory is removed before its phase took it.
 */
export interface WorkdirPlace {
  root: string;
  user: SandboxUser;
  release?: () => void;
}

/**
 * A new place for a working directory. mkdtemp makes it private (0700); it belongs to the
 * sandbox's user, and so does everything prepareWorkdir writes in it before anything runs there.
 * Its name carries this process's id, so a directory left by a process that died can be told.
 */
export function newWorkdirPlace(settings: TerraformSettings): WorkdirPlace {
  const root = mkdtempSync(join(ensureWorkRoot(settings.workRoot), `${WORKDIR_PREFIX}${process.pid}-`));
  const user = settings.sandbox.user();
  settings.sandbox.ownFile(root, user);
  return { root, user };
}

/** Where a phase's SSH key goes in its directory, and the key's file there (see prepareWorkdir). */
const SSH_DIR = 'ssh';
const SSH_KEY_FILE = 'id_key';

/** A word a POSIX shell reads back as `s` itself (git runs GIT_SSH_COMMAND through one). */
const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The environment that makes git (which `terraform init` runs for `git::ssh://` module sources)
 * use the workspace's key from the phase's directory `root`, and only it: no agent, no other
 * identity, never a prompt, and host keys learnt on first use into the directory (nothing is
 * known before; a changed host key within the phase is refused). Empty without a key.
 */
export function sshKeyEnv(root: string, key: string | null | undefined): Record<string, string> {
  if (!key) return {};
  const dir = join(root, SSH_DIR);
  const options = [
    'IdentitiesOnly=yes',
    'IdentityAgent=none',
    'BatchMode=yes',
    'StrictHostKeyChecking=accept-new',
    `UserKnownHostsFile=${shellWord(join(dir, 'known_hosts'))}`,
  ];
  return { GIT_SSH_COMMAND: `ssh -i ${shellWord(join(dir, SSH_KEY_FILE))} ${options.map((o) => `-o ${o}`).join(' ')}` };
}

/** The CLI configuration file of a working directory that has its own (see prepareWorkdir). */
const RUN_CLI_CONFIG = 'cli.tfrc';

/**
 * A working directory in `place` (a new one unless given) with the configuration unpacked, the backend neutralised, the
 * current state in place and the run's variables (HCL literals) in an auto.tfvars file.
 * Directories and files of a few hundred bytes are made synchronously: that takes microseconds,
 * where each asynchronous call waits for the thread pool and then for a busy event loop.
 */
export async function prepareWorkdir(
  settings: TerraformSettings,
  opts: WorkdirSources,
  place: WorkdirPlace = newWorkdirPlace(settings),
): Promise<Workdir> {
  const { root, user } = place;
  let kept = false;
  const keep = () => void (kept = true);
  const cleanup = async () => {
    place.release?.();
    // An unpacking that failed may still be finishing a file's write as the removal walks the
    // tree (ENOTEMPTY): the removal tries again rather than hide the failure's own reason.
    if (!kept) await rm(root, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    const config = join(root, 'config');
    const home = join(root, 'home');
    mkdirSync(config);
    mkdirSync(home);
    if (!opts.archive) throw new Error('the configuration archive is missing');
    const entries = await unpack(opts.archive, config, settings.maxArchiveEntries);
    const dir = resolve(config, opts.workingDirectory || '.');
    if (dir !== config && !dir.startsWith(config + sep)) throw new Error('working directory escapes the configuration');
    if (dir !== config) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'zz_rls_backend_override.tf'), BACKEND_OVERRIDE);
    // One file per variable: a value Terraform cannot parse is then reported with its own file's
    // lines only, never with a neighbour's (which may be sensitive). Loaded after the
    // configuration's own .auto.tfvars files (in name order), so these win over them.
    // A key that is not an identifier (a UUID, say) cannot be written in HCL: it goes to a JSON
    // file, which takes any key, so Terraform gets it as TFE passes it on and warns that no
    // variable of that name is declared (none can be). Its value there is the expression's text.
    for (const [i, v] of (opts.variables ?? []).entries()) {
      const file = join(dir, `zz_rls_var_${String(i).padStart(4, '0')}.auto.tfvars`);
      if (isTerraformIdentifier(v.key)) writeFileSync(file, `${v.key} = ${v.value}\n`, { mode: 0o600 });
      else writeFileSync(`${file}.json`, `${JSON.stringify({ [v.key]: v.value })}\n`, { mode: 0o600 });
    }
    const statePath = join(dir, STATE_FILE);
    if (opts.state) await writeFile(statePath, opts.state);
    if (opts.sshKey) {
      // Beside the configuration, not in it: the key is removed with the directory when the phase ends.
      mkdirSync(join(root, SSH_DIR), { mode: 0o700 });
      writeFileSync(join(root, SSH_DIR, SSH_KEY_FILE), sshKeyFileContent(opts.sshKey), { mode: 0o600 });
    }
    let env: NodeJS.ProcessEnv = {
      ...opts.environment,
      ...sshKeyEnv(root, opts.sshKey),
      ...terraformEnv(settings, home),
    };
    if (opts.service) {
      // The operator's configuration (a provider mirror, say), then the service's blocks; readable
      // by the sandbox's user only (it holds the run's token).
      const operator = settings.cliConfigFile ? await readFile(settings.cliConfigFile, 'utf8') : '';
      const cliConfig = join(root, RUN_CLI_CONFIG);
      writeFileSync(cliConfig, `${operator}\n${opts.service.cliConfig}`, { mode: 0o600 });
      env = {
        ...opts.environment,
        ...opts.service.env,
        ...sshKeyEnv(root, opts.sshKey),
        ...terraformEnv(settings, home),
        TF_CLI_CONFIG_FILE: cliConfig,
      };
    }
    // The archive's entries, and the few files and directories written here besides.
    await settings.sandbox.own(root, user, entries + (opts.variables?.length ?? 0) + 10);
    return { root, dir, statePath, home, env, user, cleanup, keep };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
