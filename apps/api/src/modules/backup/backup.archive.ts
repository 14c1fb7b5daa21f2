import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  BLOCK,
  decodeHeader,
  TAR_END,
  TarFormatError,
  type TarHeader,
  tarEntries,
  tarHeader,
  tarPadding,
} from './backup.tar.js';

// The backup archive (decision 013): one tar stream, written and read front to back, never
// unpacked to disk.
//
//   blobs/ab/cd/<sha256>        every blob, named by its content address
//   database/<table>.tsv        every table, as COPY ... TO STDOUT (text format)
//   manifest.json               Quire version, migrations, tables (columns, rows), the
//                               size and sha256 of every part
//   manifest.sig                last: HMAC-SHA256 of manifest.json's exact bytes, with a key
//                               derived from APP_SECRET (never in the archive), and that key's id
//
// The signature makes the manifest, and through its checksums every part, the work of this
// installation: an archive edited elsewhere (checksums recomputed or not) is refused before
// anything is changed, and so is an archive without a signature.
//
// Reading refuses anything else: entries that are not plain files (links, devices, folders),
// names that are absolute or climb out (`../`), and names outside the three shapes above. A
// blob is stored by the hash of its bytes, never by its name, so no name reaches the disk.

export const ARCHIVE_FORMAT = 'quire-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const SIGNATURE_NAME = 'manifest.sig';
const SIGNATURE_MAX_BYTES = 4096;
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

const BLOB_ENTRY = /^blobs\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
const TABLE_ENTRY = /^database\/([a-z_][a-z0-9_]{0,62})\.tsv$/;

export const blobEntryName = (id: string) => `blobs/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
export const tableEntryName = (table: string) => `database/${table}.tsv`;

const ZPart = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const ZManifest = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.literal(ARCHIVE_FORMAT_VERSION),
  quire_version: z.string(),
  created_at: z.string(),
  /** The last migration of the database it was taken from, and all of them. */
  migration: z.string(),
  migrations: z.array(z.string()),
  /** In the order they were written (parents before the tables that refer to them). */
  tables: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      columns: z.array(z.string()).min(1),
      rows: z.number().int().nonnegative(),
    }),
  ),
  blobs: z.object({ count: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
  parts: z.array(ZPart),
});
export type Manifest = z.infer<typeof ZManifest>;
export type ManifestPart = z.infer<typeof ZPart>;

const ZSignature = z.object({
  alg: z.literal('HMAC-SHA256'),
  /** keyId() of the signing key: names the installation, not the key. */
  key_id: z.string().regex(/^[0-9a-f]{16}$/),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
});

const macOf = (key: Buffer, manifest: Buffer) => createHmac('sha256', key).update(manifest).digest();

/** The manifest.sig entry for a manifest's exact bytes (key: deriveKey(secretKey, 'backup-archive')). */
export function signManifest(key: Buffer, keyId: string, manifest: Buffer): Buffer {
  return Buffer.from(
    JSON.stringify({ alg: 'HMAC-SHA256', key_id: keyId, mac: macOf(key, manifest).toString('hex') }),
  );
}

/** Throws ArchiveError unless `signature` is this installation's signature of `manifest`. */
function checkSignature(key: { key: Buffer; id: string }, manifest: Buffer, signature: Buffer | null) {
  if (!signature)
    throw new ArchiveError(
      'The archive is not signed: only archives made by this Quire installation (same APP_SECRET) can be uploaded or restored',
    );
  let parsed: z.infer<typeof ZSignature>;
  try {
    parsed = ZSignature.parse(JSON.parse(signature.toString('utf8')));
  } catch {
    throw new ArchiveError('The archive’s signature is unreadable: the archive was altered');
  }
  if (parsed.key_id !== key.id)
    throw new ArchiveError(
      'The archive was signed by another Quire installation (a different APP_SECRET): set the APP_SECRET it was made with to restore it',
    );
  if (!timingSafeEqual(Buffer.from(parsed.mac, 'hex'), macOf(key.key, manifest)))
    throw new ArchiveError(
      'The archive’s manifest does not match its signature: the archive was altered after it was made',
    );
}

/** An archive that cannot be trusted: the reason, for the admin. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

type EntryKind = 'blob' | 'table' | 'manifest' | 'signature';

/** Checks an entry's header; throws ArchiveError for links, odd types and names that leave the folder. */
function checkEntry(header: { name: string; type?: string | null }): {
  kind: EntryKind;
  key: string;
} {
  const name = header.name;
  if (header.type !== 'file')
    throw new ArchiveError(
      `The archive has an entry "${name}" of type ${header.type ?? 'unknown'}: only plain files are allowed (no links)`,
    );
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\\') || name.includes('\0'))
    throw new ArchiveError(`The archive entry "${name}" has an absolute path: refused`);
  if (name.split('/').some((p) => p === '..' || p === '.' || p === ''))
    throw new ArchiveError(`The archive entry "${name}" leaves the target folder: refused`);
  if (name === MANIFEST_NAME) return { kind: 'manifest', key: name };
  if (name === SIGNATURE_NAME) return { kind: 'signature', key: name };
  const blob = BLOB_ENTRY.exec(name);
  if (blob) {
    if (blob[1] !== blob[3]!.slice(0, 2) || blob[2] !== blob[3]!.slice(2, 4))
      throw new ArchiveError(`The archive entry "${name}" is not where its content address says`);
    return { kind: 'blob', key: blob[3]! };
  }
  const table = TABLE_ENTRY.exec(name);
  if (table) return { kind: 'table', key: table[1]! };
  throw new ArchiveError(`The archive has an entry "${name}" that a Quire backup never has`);
}

interface ReadEntry {
  kind: EntryKind;
  key: string;
  name: string;
  size: number;
  /** The entry's bytes, as views of reused buffers: use each before asking for the next. */
  content: AsyncIterable<Buffer>;
}

/**
 * Reads an archive entry by entry (never unpacked to disk), refusing any entry checkEntry
 * refuses. `onEntry` may read the entry's content or leave it: what it leaves is skipped.
 */
export async function readArchive(
  source: AsyncIterable<Uint8Array>,
  onEntry: (entry: ReadEntry) => Promise<void>,
): Promise<void> {
  try {
    for await (const entry of tarEntries(source)) {
      const { kind, key } = checkEntry(entry);
      await onEntry({ kind, key, name: entry.name, size: entry.size, content: entry.content });
    }
  } catch (err) {
    if (err instanceof ArchiveError) throw err;
    if (err instanceof TarFormatError)
      throw new ArchiveError(`The file is not a complete backup archive (${err.message})`);
    throw err;
  }
}

/** Hashes content to its end: sha256 and size. */
async function hashChunks(content: AsyncIterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of content) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function readSmall(content: AsyncIterable<Buffer>, max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of content) {
    size += chunk.length;
    if (size > max) throw new ArchiveError(`The ${what} is too large`);
    chunks.push(Buffer.from(chunk)); // a copy: the chunk's buffer is reused
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a whole archive and checks it: its manifest signed with `key` (first: nothing else
 * is believed before that), then every part there with the size and sha256 the manifest
 * says, every blob's bytes hashing to its name, nothing more, nothing twice. Answers the
 * manifest; throws ArchiveError saying what does not match.
 */
export async function verifyArchive(
  source: AsyncIterable<Uint8Array>,
  key: { key: Buffer; id: string },
  onProgress?: (bytes: number) => void,
): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestBytes: Buffer | null = null;
  let signature: Buffer | null = null;
  let read = 0;
  await readArchive(source, async (entry) => {
    if (
      seen.has(entry.name) ||
      (entry.kind === 'manifest' && manifestBytes) ||
      (entry.kind === 'signature' && signature)
    )
      throw new ArchiveError(`The archive has "${entry.name}" twice`);
    if (entry.kind === 'manifest') {
      manifestBytes = await readSmall(entry.content, MANIFEST_MAX_BYTES, 'manifest');
      return;
    }
    if (entry.kind === 'signature') {
      signature = await readSmall(entry.content, SIGNATURE_MAX_BYTES, 'signature');
      return;
    }
    const got = await hashChunks(entry.content);
    if (got.size !== entry.size) throw new ArchiveError(`The archive entry ${entry.name} is cut short`);
    if (entry.kind === 'blob' && got.sha256 !== entry.key)
      throw new ArchiveError(`The blob ${entry.key} does not match its checksum: the archive is damaged`);
    seen.set(entry.name, got);
    read += got.size;
    onProgress?.(read);
  });
  if (!manifestBytes) throw new ArchiveError('The archive has no manifest: it is not a Quire backup');
  const manifest = trustedManifest(key, manifestBytes, signature);
  const listed = new Set<string>();
  for (const part of manifest.parts) {
    const got = seen.get(part.path);
    if (!got) throw new ArchiveError(`The manifest lists ${part.path}, which the archive does not have`);
    if (got.size !== part.size || got.sha256 !== part.sha256)
      throw new ArchiveError(
        `${part.path} does not match its checksum in the manifest: the archive is damaged or was altered`,
      );
    listed.add(part.path);
  }
  for (const name of seen.keys())
    if (!listed.has(name))
      throw new ArchiveError(`The archive has ${name}, which its manifest does not list`);
  for (const t of manifest.tables)
    if (!listed.has(t.path) || t.path !== tableEntryName(t.name))
      throw new ArchiveError(`The manifest's table ${t.name} has no part of its own`);
  return manifest;
}

/** The manifest, once its signature is this installation's; throws ArchiveError otherwise. */
function trustedManifest(
  key: { key: Buffer; id: string },
  bytes: Buffer,
  signature: Buffer | null,
): Manifest {
  checkSignature(key, bytes, signature);
  try {
    return ZManifest.parse(JSON.parse(bytes.toString('utf8')));
  } catch {
    throw new ArchiveError('The archive’s manifest is unreadable or from an unknown backup format');
  }
}

/** Bytes `start` (included) to `end` (excluded) of an archive. */
type RangeReader = (start: number, end: number) => Promise<Buffer>;

const blocksOf = (size: number) => Math.ceil(size / BLOCK);
/** Zero blocks a tar may end with: ours write two, GNU tar pads to a 10 KiB record. */
const TRAILER_MAX_BLOCKS = 20;
/** How much of the archive's end is read at a time while looking for the manifest's header. */
const SCAN_WINDOW = 4 * 1024 * 1024;

/** The header at `at` in `window` if it is entry `name` followed by exactly `contentBlocks` blocks. */
function entryHeaderAt(window: Buffer, at: number, name: string, contentBlocks: number): TarHeader | null {
  if (window.toString('latin1', at, at + name.length + 1) !== `${name}\0`) return null;
  try {
    const header = decodeHeader(window.subarray(at, at + BLOCK));
    return header.type === 'file' && header.name === name && blocksOf(header.size) === contentBlocks
      ? header
      : null;
  } catch (err) {
    if (err instanceof TarFormatError) return null;
    throw err;
  }
}

/**
 * Checks an archive's signature and manifest from its end, reading neither its blobs nor its
 * tables: for a restore, which must refuse a bad archive before it answers (the restore job
 * then checks every part's checksum, before any change). The last entries of a Quire archive
 * are manifest.json and manifest.sig; the manifest must be signed with `key`, readable, and
 * describe the archive's layout (its parts' sizes add up to where the manifest starts).
 * Answers the manifest; throws ArchiveError saying what is wrong.
 */
export async function verifyManifestFromEnd(
  read: RangeReader,
  size: number,
  key: { key: Buffer; id: string },
): Promise<Manifest> {
  const incomplete = (why: string) => new ArchiveError(`The file is not a complete backup archive (${why})`);
  if (size % BLOCK !== 0 || size < 3 * BLOCK) throw incomplete('its size is not one of a tar archive');
  // Past the trailing zero blocks: `end` is where the last entry (the signature) ends.
  const tailStart = Math.max(0, size - BLOCK * TRAILER_MAX_BLOCKS);
  const tail = await read(tailStart, size);
  let end = size;
  while (end > tailStart && tail.subarray(end - tailStart - BLOCK, end - tailStart).every((b) => b === 0))
    end -= BLOCK;
  if (end === size || end <= tailStart) throw incomplete('it does not end as a tar archive does');

  const sigSpan = Math.min(end, BLOCK * (1 + blocksOf(SIGNATURE_MAX_BYTES)));
  const sigWindow = await read(end - sigSpan, end);
  let sigAt = -1;
  let signature: Buffer | null = null;
  for (let blocks = 0; BLOCK * (blocks + 1) <= sigSpan && !signature; blocks += 1) {
    const at = sigSpan - BLOCK * (blocks + 1);
    const header = entryHeaderAt(sigWindow, at, SIGNATURE_NAME, blocks);
    if (!header) continue;
    sigAt = end - sigSpan + at;
    signature = Buffer.from(sigWindow.subarray(at + BLOCK, at + BLOCK + header.size));
  }
  if (!signature)
    throw new ArchiveError(
      'The archive is not signed: only archives made by this Quire installation (same APP_SECRET) can be uploaded or restored',
    );

  // The manifest's header: the block before the signature's, less the manifest's own blocks.
  let manifestAt = -1;
  let manifestSize = 0;
  const lowest = Math.max(0, sigAt - BLOCK * (1 + blocksOf(MANIFEST_MAX_BYTES)));
  for (let top = sigAt; top > lowest && manifestAt < 0; top -= SCAN_WINDOW) {
    const bottom = Math.max(lowest, top - SCAN_WINDOW);
    const window = await read(bottom, top);
    for (let at = window.length - BLOCK; at >= 0; at -= BLOCK) {
      const header = entryHeaderAt(window, at, MANIFEST_NAME, (sigAt - (bottom + at) - BLOCK) / BLOCK);
      if (!header) continue;
      manifestAt = bottom + at;
      manifestSize = header.size;
      break;
    }
  }
  if (manifestAt < 0) throw new ArchiveError('The archive has no manifest: it is not a Quire backup');
  const manifest = trustedManifest(
    key,
    await read(manifestAt + BLOCK, manifestAt + BLOCK + manifestSize),
    signature,
  );
  const described = manifest.parts.reduce((n, p) => n + BLOCK * (1 + blocksOf(p.size)), 0);
  if (described !== manifestAt)
    throw new ArchiveError(
      'The archive’s parts are not the ones its manifest describes: the archive is damaged or was altered',
    );
  return manifest;
}

/** One entry of the archive as chunks: header, content (checked against its size), padding. */
export async function* archiveEntry(
  name: string,
  size: number,
  mtime: Date,
  content: AsyncIterable<Buffer> | Buffer,
): AsyncGenerator<Buffer> {
  yield tarHeader(name, size, mtime);
  let written = 0;
  for await (const chunk of Buffer.isBuffer(content) ? [content] : content) {
    written += chunk.length;
    if (written > size) break;
    yield chunk;
  }
  if (written !== size) throw new Error(`${name} changed size while it was archived`);
  yield tarPadding(size);
}

export { TAR_END };
