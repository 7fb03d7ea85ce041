import { expect } from 'chai';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpareShell, spawnPhase } from '../../../../shared/platform/terraform/phase-process.js';
import { terraformEnv, type TerraformSettings, type Workdir } from '../../../../shared/platform/terraform/runner.js';
import { unsandboxed } from '../../../helpers/sandbox.js';

/** A stand-in for Terraform: init succeeds, show prints a JSON plan, the phase command prints what it was given. */
const FAKE = `#!/bin/sh
case "$1" in
  init) echo initialised; exit 0 ;;
  show) echo '{"resource_changes":[]}'; exit 0 ;;
  providers) printf '{"schemas_of":"%s"}\\n' "$(pwd)"; exit 0 ;;
esac
for arg in "$@"; do printf '[%s]\\n' "$arg"; done
echo "cwd=$(pwd) home=$HOME secret=\${RLS_TEST_SECRET:-absent} automation=$TF_IN_AUTOMATION"
exit 2
`;

function workdir(root: string, settings: TerraformSettings): Workdir {
  const dir = join(root, 'config');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  const user = settings.sandbox.user();
  return {
    root,
    dir,
    home,
    statePath: join(dir, 'state'),
    env: terraformEnv(settings, home),
    user,
    cleanup: async () => rmSync(root, { recursive: true, force: true }),
    keep: () => undefined,
  };
}

describe('phase processes', () => {
  let base: string;
  let settings: TerraformSettings;
  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'phase-test-')));
    settings = {
      bin: join(base, 'terraform'),
      cliConfigFile: null,
      sandbox: unsandboxed(),
      maxArchiveEntries: 1000,
      workRoot: join(base, 'runs'),
    };
    writeFileSync(settings.bin, FAKE);
    chmodSync(settings.bin, 0o755);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('runs init, the command on go and show -json in the working directory, with arguments verbatim and only the working environment', async () => {
    const args = ['plan', '-target=terraform_data.a["x"]', "it's", 'two\nlines', '$(echo no) `echo no`', '  spaced  '];
    process.env.RLS_TEST_SECRET = 'do-not-leak';
    try {
      // Phases in turn: the first shell is started for it, later ones may find one started ahead.
      for (let i = 0; i < 3; i++) {
        const root = mkdtempSync(join(base, 'run-'));
        const wd = workdir(root, settings);
        const phase = spawnPhase(settings, wd, { command: args, show: true });
        const output: Buffer[] = [];
        phase.output((c) => output.push(c));
        phase.go();
        // Init ran in the working directory; a success's output is left unread.
        expect(await phase.init).to.deep.include({ code: 0, output: '' });
        expect(readFileSync(join(root, 'init.out'), 'utf8')).to.equal('initialised\n');
        expect(await phase.main).to.deep.equal({ code: 2, signal: null });
        const show = await phase.show;
        expect(show).to.deep.include({ code: 0, size: 24 });
        expect(show.json?.toString('utf8')).to.equal('{"resource_changes":[]}\n');
        expect(phase.schemas).to.equal(null);
        await phase.process.done;
        const lines = Buffer.concat(output).toString('utf8');
        expect(lines).to.equal(
          `${args.map((a) => `[${a}]`).join('\n')}\ncwd=${wd.dir} home=${wd.home} secret=absent automation=1\n`,
        );
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      delete process.env.RLS_TEST_SECRET;
    }
  });

  it('leaves a JSON plan larger than maxJsonBytes unread, its size said; a phase without show reports show failed', async () => {
    const wd = workdir(mkdtempSync(join(base, 'run-')), settings);
    const phase = spawnPhase(settings, wd, { command: ['plan'], show: true, maxJsonBytes: 10 });
    phase.go();
    expect(await phase.show).to.deep.include({ code: 0, json: null, size: 24 });
    await phase.process.done;

    const apply = spawnPhase(settings, workdir(mkdtempSync(join(base, 'run-')), settings), {
      command: ['apply'],
      show: false,
    });
    apply.go();
    await apply.process.done;
    expect(await apply.show).to.deep.include({ code: 1, json: null });
  });

  it('runs nothing after a failed init, and a phase that is never told to go ends when killed', async () => {
    const failing: TerraformSettings = { ...settings, bin: join(base, 'no-such-terraform') };
    const wd = workdir(mkdtempSync(join(base, 'run-')), failing);
    const phase = spawnPhase(failing, wd, { command: ['plan'], show: true });
    const output: Buffer[] = [];
    phase.output((c) => output.push(c));
    phase.go();
    const init = await phase.init;
    expect(init.code).to.equal(127);
    expect(init.output).to.match(/no-such-terraform/);
    expect((await phase.process.done).code).to.equal(0);
    expect(Buffer.concat(output).toString('utf8')).to.equal('');

    const idle = spawnPhase(settings, workdir(mkdtempSync(join(base, 'run-')), settings), {
      command: ['plan'],
      show: true,
    });
    expect((await idle.init).code).to.equal(0);
    idle.process.kill();
    expect((await idle.process.done).signal).to.equal('SIGKILL');
  });

  it("reads the providers' schemas after show when asked, and not after a show that failed", async () => {
    const wd = workdir(mkdtempSync(join(base, 'run-')), settings);
    const phase = spawnPhase(settings, wd, { command: ['plan'], show: true, schemas: true });
    phase.go();
    expect((await phase.show).code).to.equal(0);
    expect(await phase.schemas).to.deep.include({ code: 0, output: `{"schemas_of":"${wd.dir}"}\n` });

    const failingShow: TerraformSettings = { ...settings, bin: join(base, 'terraform-show-fails') };
    writeFileSync(
      failingShow.bin,
      FAKE.replace(`show) echo '{"resource_changes":[]}'; exit 0 ;;`, 'show) echo broken >&2; exit 1 ;;'),
    );
    chmodSync(failingShow.bin, 0o755);
    const other = workdir(mkdtempSync(join(base, 'run-')), failingShow);
    const failed = spawnPhase(failingShow, other, { command: ['plan'], show: true, schemas: true });
    failed.go();
    expect(await failed.show).to.deep.include({ code: 1, output: 'broken\n' });
    // Never run: the step ends as the shell did, and there is no schema file.
    expect(await failed.schemas).to.deep.include({ code: 0, output: '' });
  });

  it('keeps an empty private directory made ahead for unsandboxed phases, one per phase, and removes an unused one when closed', async () => {
    const spare = new SpareShell();
    const places = join(base, 'places');
    mkdirSync(places);
    const own: TerraformSettings = { ...settings, workRoot: places };
    try {
      // Nothing made ahead yet: prepareWorkdir makes its own; one is made soon after.
      expect(spare.place(own)).to.equal(undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const first = spare.place(own);
      expect(first, 'a directory made ahead').to.not.equal(undefined);
      expect(readdirSync(first!.root)).to.deep.equal([]);
      expect(statSync(first!.root).mode & 0o777).to.equal(0o700);
      // Taken: the next phase finds none until another is made, never the same one.
      expect(spare.place(own)).to.equal(undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = spare.place(own);
      expect(second?.root).to.be.a('string').and.not.equal(first!.root);
      // Made for other settings: not handed out, and removed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(spare.place({ ...own })).to.equal(undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const made = readdirSync(places);
      expect(made).to.have.length(3);
      await spare.close();
      // The one made last was never used: closing removes it; the ones handed out are their phases'.
      expect(readdirSync(places).sort()).to.deep.equal(
        [first!.root, second!.root].map((r) => r.slice(places.length + 1)).sort(),
      );
    } finally {
      await spare.close();
    }
  });
});
