import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileChunks } from '../../lib/file-chunks.js';
import { TAR_END, TarFormatError, tarEntries, tarHeader, tarPadding } from './backup.tar.js';

// The archive's tar is written and read by hand (backup.tar.ts): checked here against two
// other implementations (GNU tar and tar-stream) and against sources cut into odd chunks.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'quire-tar-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mtime = new Date('2026-05-01T12:00:00Z');
const entries: Array<[string, Buffer]> = [
  ['blobs/ab/cd/one', randomBytes(1000)],
  ['database/empty.tsv', Buffer.alloc(0)],
  ['database/exact.tsv', randomBytes(1024)],
  ['manifest.json', Buffer.from('{"a":1}')],
];
const archive = () =>
  Buffer.concat([
    ...entries.flatMap(([name, data]) => [
      tarHeader(name, data.length, mtime),
      data,
      tarPadding(data.length),
    ]),
    TAR_END,
  ]);

/** The archive cut into chunks of `size` bytes. */
function* cut(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function* from<T>(items: Iterable<T>) {
  yield* items;
}

async function readAllEntries(source: AsyncIterable<Uint8Array>) {
  const out: Array<[string, string, Buffer]> = [];
  for await (const e of tarEntries(source)) {
    const parts: Buffer[] = [];
    for await (const c of e.content) parts.push(Buffer.from(c));
    out.push([e.name, e.type, Buffer.concat(parts)]);
  }
  return out;
}

describe('the archive tar', () => {
  it('is read back by GNU tar, name, size and bytes', async () => {
    const file = path.join(dir, 'a.tar');
    await writeFile(file, archive());
    const listing = execFileSync('tar', ['-tvf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listing.map((l) => l.split(/\s+/).at(-1))).toEqual(entries.map(([n]) => n));
    expect(listing.map((l) => Number(l.split(/\s+/)[2]))).toEqual(entries.map(([, d]) => d.length));
    const out = path.join(dir, 'x');
    await mkdir(out);
    execFileSync('tar', ['-xf', file, '-C', out]);
    const first = await readFile(path.join(out, 'blobs/ab/cd/one'));
    expect(first.equals(entries[0]![1])).toBe(true);
  });

  it('is read back by tar-stream, and reads what tar-stream writes', async () => {
    const seen: string[] = [];
    const extract = tar.extract();
    const feeding = pipeline(Readable.from([archive()]), extract as unknown as Writable);
    for await (const entry of extract) {
      seen.push(`${entry.header.name}:${entry.header.size}`);
      entry.resume();
    }
    await feeding;
    expect(seen).toEqual(entries.map(([n, d]) => `${n}:${d.length}`));

    const pack = tar.pack();
    for (const [name, data] of entries) pack.entry({ name, size: data.length }, data);
    pack.entry({ name: 'a/link', type: 'symlink', linkname: '/etc/passwd' });
    pack.finalize();
    const theirs: Buffer[] = [];
    for await (const chunk of pack) theirs.push(chunk as Buffer);
    const read = await readAllEntries(from([Buffer.concat(theirs)]));
    expect(read.map(([n, t]) => `${n}:${t}`)).toEqual([
      ...entries.map(([n]) => `${n}:file`),
      'a/link:symlink',
    ]);
    expect(read[0]![2].equals(entries[0]![1])).toBe(true);
  });

  it('reads the same entries whatever the chunk sizes of the source', async () => {
    const whole = await readAllEntries(from([archive()]));
    for (const size of [1, 7, 511, 512, 513, 4096]) {
      const read = await readAllEntries(from(cut(archive(), size)));
      expect(read.map(([n, , d]) => [n, d.toString('hex')])).toEqual(
        whole.map(([n, , d]) => [n, d.toString('hex')]),
      );
    }
  });

  it('skips the content an entry reader leaves unread', async () => {
    const names: string[] = [];
    for await (const e of tarEntries(from(cut(archive(), 100)))) names.push(e.name);
    expect(names).toEqual(entries.map(([n]) => n));
  });

  it('refuses a damaged header and an archive cut short', async () => {
    const damaged = archive();
    damaged[3] = (damaged[3] ?? 0) ^ 1;
    await expect(readAllEntries(from([damaged]))).rejects.toThrow(TarFormatError);
    const short = archive().subarray(0, 900);
    await expect(readAllEntries(from([short]))).rejects.toThrow(/unexpected end/);
  });

  it('writes sizes of 8 GiB and more in the base-256 form tar reads', async () => {
    const size = 9 * 1024 ** 3 + 5;
    const header = tarHeader('big', size, mtime);
    expect(header[124]).toBe(0x80);
    const file = path.join(dir, 'big-header.tar');
    await writeFile(file, header);
    // GNU tar lists the entry's size from the header alone (then says the archive is short).
    let listing = '';
    try {
      listing = execFileSync('tar', ['-tvf', file], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch (err) {
      listing = String((err as { stdout?: string }).stdout ?? '');
    }
    expect(listing).toContain(String(size));
    const iterator = tarEntries(from([header]));
    const first = await iterator.next();
    expect(first.value?.size).toBe(size);
  });
});

describe('readFileChunks', () => {
  it('reads a file, or a range of it, in chunks that add up to its bytes', async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 123);
    const file = path.join(dir, 'chunks.bin');
    await writeFile(file, bytes);
    const all: Buffer[] = [];
    for await (const c of readFileChunks(file)) all.push(Buffer.from(c));
    expect(all.length).toBe(3);
    expect(Buffer.concat(all).equals(bytes)).toBe(true);
    const part: Buffer[] = [];
    for await (const c of readFileChunks(file, { start: 5_000_000, end: 5_000_099 }))
      part.push(Buffer.from(c));
    expect(Buffer.concat(part).equals(bytes.subarray(5_000_000, 5_000_100))).toBe(true);
  });
});
