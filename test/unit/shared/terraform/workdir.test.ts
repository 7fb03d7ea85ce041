import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { prepareWorkdir, type TerraformSettings, type Workdir } from '../../../../shared/platform/terraform/runner.js';
import { tarGz } from '../../../helpers/fixtures.js';
import { unsandboxed } from '../../../helpers/sandbox.js';

/** The store's form of an archive: a stream of its bytes. */
const streamOf = (bytes: Buffer) => Readable.from([bytes]);

describe('working directories: unpacking the configuration', () => {
  let settings: TerraformSettings;
  const made: Workdir[] = [];
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'workdir-test-'));
    settings = { bin: 'terraform', cliConfigFile: null, sandbox: unsandboxed(), maxArchiveEntries: 50, workRoot: root };
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  afterEach(async () => {
    for (const wd of made.splice(0)) await wd.cleanup();
  });

  const prepare = async (archive: Buffer, maxArchiveEntries = settings.maxArchiveEntries) => {
    const wd = await prepareWorkdir(
      { ...settings, maxArchiveEntries },
      { archive: streamOf(archive), workingDirectory: '' },
    );
    made.push(wd);
    return wd;
  };

  it('unpacks a small .tar.gz, and the same archive uncompressed, to the same files', async () => {
    const files = { 'main.tf': 'resource "terraform_data" "a" {}\n', 'modules/net/vars.tf': 'variable "cidr" {}\n' };
    const gz = await tarGz(files);
    for (const archive of [gz, gunzipSync(gz)]) {
      const wd = await prepare(archive);
      for (const [path, content] of Object.entries(files))
        expect(readFileSync(`${wd.dir}/${path}`, 'utf8')).to.equal(content);
    }
  });

  it('unpacks a small archive that inflates past what is inflated in memory, as a stream', async () => {
    // A random block repeated to 9 MiB gzips to well under the one-pass size, and inflates to more than is inflated in memory.
    const block = randomBytes(2048).toString('hex');
    const big = block.repeat(Math.ceil((9 * 1024 * 1024) / block.length));
    const gz = await tarGz({ 'main.tf': 'terraform {}\n', 'data.txt': big });
    expect(gz.length).to.be.lessThan(256 * 1024);
    const wd = await prepare(gz);
    expect(statSync(`${wd.dir}/data.txt`).size).to.equal(big.length);
    expect(readFileSync(`${wd.dir}/main.tf`, 'utf8')).to.equal('terraform {}\n');
  });

  it('refuses a small gzip bomb as the unpacker always did', async () => {
    const gz = await tarGz({ 'main.tf': 'terraform {}\n', 'zeros.bin': '\0'.repeat(9 * 1024 * 1024) });
    expect(gz.length).to.be.lessThan(64 * 1024);
    await prepare(gz).then(
      () => expect.fail('a gzip bomb was unpacked'),
      (err: Error) => expect(err.message).to.include('max decompression ratio exceeded'),
    );
  });

  it('counts entries against MAX_ARCHIVE_ENTRIES on the one-pass path', async () => {
    const gz = await tarGz({ 'a.tf': '\n', 'b.tf': '\n', 'c.tf': '\n' });
    await prepare(gz, 2).then(
      () => expect.fail('an archive with more entries than allowed was unpacked'),
      (err: Error) => expect(err.message).to.include('more than 2 entries (MAX_ARCHIVE_ENTRIES)'),
    );
  });

  it('refuses an archive that is not valid gzip or tar', async () => {
    const gz = await tarGz({ 'main.tf': 'terraform {}\n' });
    // A gzip header on bytes that do not inflate.
    const broken = Buffer.concat([gz.subarray(0, 10), Buffer.from('not deflate data at all')]);
    for (const archive of [broken, gzipSync(Buffer.from('not a tar archive, only text'))]) {
      await prepare(archive).then(
        () => expect.fail('a broken archive was unpacked'),
        (err: Error) => expect(err.message).to.be.a('string').and.not.equal(''),
      );
    }
  });
});
