import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { inspectArchive } from '../../../shared/platform/archive.js';

/** A ustar header for a regular file of `size` bytes (the checksum computed as tar does). */
function header(path: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(path, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

/** A .tar.gz of the given files. */
function tarGz(files: [string, Buffer][]): Buffer {
  const parts: Buffer[] = [];
  for (const [path, body] of files) {
    parts.push(header(path, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

describe('archive inspection', () => {
  it('reads an archive of several slices (incompressible content) to its end', async () => {
    const big = randomBytes(300 * 1024);
    const archive = tarGz([
      ['main.tf', Buffer.from('resource "terraform_data" "a" {}\n')],
      ['blob.bin', big],
    ]);
    expect(archive.length).to.be.greaterThan(256 * 1024);
    const check = await inspectArchive(archive, 1024 * 1024);
    expect(check).to.deep.equal({ ok: true, files: ['main.tf', 'blob.bin'], unpackedBytes: 33 + big.length });
  });

  it('refuses an archive that unpacks to more than allowed, and one with an unsafe path', async () => {
    const zeros = tarGz([['zeros.bin', Buffer.alloc(4 * 1024 * 1024)]]);
    expect(await inspectArchive(zeros, 1024 * 1024)).to.deep.equal({
      ok: false,
      message: 'the archive unpacks to more than the allowed size',
    });
    const escaping = tarGz([['../outside.tf', Buffer.from('x')]]);
    expect(await inspectArchive(escaping, 1024 * 1024)).to.deep.equal({
      ok: false,
      message: 'unsafe path in archive: ../outside.tf',
    });
  });
});
