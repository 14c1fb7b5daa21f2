// The tar format of the backup archive (POSIX ustar), written and read here rather than
// through a stream library: the archive moves as chunks of reused buffers (lib/file-chunks.ts),
// so gigabytes of blobs go through without a new Buffer per read. Allocating one per read
// made V8 run a full garbage collection every few dozen MiB on the app's heap, which doubled
// the time of a backup (decision 013).
//
// Only what a Quire archive needs: regular files with short ASCII names. Reading reports the
// type of any other entry (links, folders, extended headers) so the caller can refuse it.

/** Tar's unit: headers and content padding come in blocks of 512 bytes. */
export const BLOCK = 512;
const ZEROS = Buffer.alloc(2 * BLOCK);
/** The two zero blocks that end an archive. */
export const TAR_END: Buffer = ZEROS;

/** Sizes from 8 GiB up do not fit 11 octal digits: GNU's base-256 form, as tar reads it. */
const OCTAL_LIMIT = 8 ** 11;

function writeOctal(header: Buffer, value: number, offset: number, length: number) {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

function writeSize(header: Buffer, size: number) {
  if (size < OCTAL_LIMIT) return writeOctal(header, size, 124, 12);
  header[124] = 0x80;
  let rest = BigInt(size);
  for (let i = 135; i > 124; i--) {
    header[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
}

/** The ustar header of a regular file. */
export function tarHeader(name: string, size: number, mtime: Date, mode = 0o600): Buffer {
  const bytes = Buffer.byteLength(name);
  if (bytes > 100 || !/^[\x20-\x7e]+$/.test(name)) throw new Error(`Not a short ASCII entry name: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'ascii');
  writeOctal(header, mode, 100, 8);
  writeOctal(header, 0, 108, 8); // uid
  writeOctal(header, 0, 116, 8); // gid
  writeSize(header, size);
  writeOctal(header, Math.floor(mtime.getTime() / 1000), 136, 12);
  header.write('0', 156, 1, 'ascii'); // regular file
  header.write('ustar\u000000', 257, 8, 'ascii');
  header.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return header;
}

/** The zeros after `size` bytes of content, to the next 512-byte boundary. */
export const tarPadding = (size: number): Buffer => ZEROS.subarray(0, (BLOCK - (size % BLOCK)) % BLOCK);

const TYPES: Record<string, string> = {
  '0': 'file',
  '\0': 'file',
  '1': 'link',
  '2': 'symlink',
  '3': 'character-device',
  '4': 'block-device',
  '5': 'directory',
  '6': 'fifo',
  '7': 'contiguous-file',
  x: 'pax-header',
  g: 'pax-global-header',
  L: 'gnu-long-path',
  K: 'gnu-long-link-path',
};

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

function readText(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('latin1');
}

function readNumber(header: Buffer, offset: number, length: number): number {
  if ((header[offset] ?? 0) & 0x80) {
    let value = 0n;
    for (let i = offset + 1; i < offset + length; i++) value = (value << 8n) | BigInt(header[i] ?? 0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new TarFormatError('an entry is too large');
    return Number(value);
  }
  const text = readText(header, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError('invalid tar header');
  return Number.parseInt(text, 8);
}

export interface TarHeader {
  name: string;
  /** 'file' for a regular file; the kind of entry otherwise (e.g. 'symlink'). */
  type: string;
  size: number;
}

/** A header block's name, type and size; throws TarFormatError when its checksum is wrong. */
export function decodeHeader(header: Buffer): TarHeader {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  if (readNumber(header, 148, 8) !== sum) throw new TarFormatError('invalid tar header');
  const flag = String.fromCharCode(header[156] ?? 0);
  const name = readText(header, 0, 100);
  const ustar = header.toString('latin1', 257, 262) === 'ustar';
  const prefix = ustar ? readText(header, 345, 155) : '';
  return {
    name: prefix ? `${prefix}/${name}` : name,
    type: TYPES[flag] ?? `unknown (${JSON.stringify(flag)})`,
    size: readNumber(header, 124, 12),
  };
}

/** Bytes from a chunk source, taken in pieces of known length; chunks are not copied. */
class ChunkReader {
  private chunk: Buffer = ZEROS.subarray(0, 0);
  private pos = 0;
  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** Whether there is a byte to read; false at the end of the source. */
  private async fill(): Promise<boolean> {
    while (this.pos >= this.chunk.length) {
      const next = await this.source.next();
      if (next.done) return false;
      const value = next.value;
      this.chunk = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length);
      this.pos = 0;
    }
    return true;
  }

  /** Copies the next `into.length` bytes into `into`; false when the source ends first. */
  async readInto(into: Buffer): Promise<boolean> {
    let filled = 0;
    while (filled < into.length) {
      if (!(await this.fill())) return false;
      const n = Math.min(into.length - filled, this.chunk.length - this.pos);
      this.chunk.copy(into, filled, this.pos, this.pos + n);
      this.pos += n;
      filled += n;
    }
    return true;
  }

  /** The next `length` bytes, as views of the source's chunks. */
  async *take(length: number, onTaken: (n: number) => void): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (!(await this.fill())) throw new TarFormatError('unexpected end of archive');
      const n = Math.min(left, this.chunk.length - this.pos);
      const piece = this.chunk.subarray(this.pos, this.pos + n);
      this.pos += n;
      left -= n;
      onTaken(n);
      yield piece;
    }
  }

  async skip(length: number): Promise<void> {
    for await (const _ of this.take(length, () => {})) {
      // skipped
    }
  }
}

interface TarEntry extends TarHeader {
  /**
   * The content, as views of the source's (reused) buffers: use each before asking for the
   * next. What the caller leaves unread is skipped.
   */
  content: AsyncIterable<Buffer>;
}

/**
 * The entries of a tar, front to back, from chunks of it. Throws TarFormatError for a header
 * that is not one (wrong checksum) and for an archive that ends before its last entry does.
 */
export async function* tarEntries(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const iterator = source[Symbol.asyncIterator]();
  const reader = new ChunkReader(iterator);
  const header = Buffer.alloc(BLOCK);
  try {
    for (;;) {
      if (!(await reader.readInto(header))) throw new TarFormatError('unexpected end of archive');
      if (header.every((byte) => byte === 0)) return; // end of archive
      const entry = decodeHeader(header);
      let taken = 0;
      const content = reader.take(entry.size, (n) => {
        taken += n;
      });
      yield { ...entry, content };
      await content.return(undefined);
      await reader.skip(entry.size - taken + tarPadding(entry.size).length);
    }
  } finally {
    await iterator.return?.();
  }
}
