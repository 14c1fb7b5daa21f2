import { fileURLToPath } from 'node:url';
import { type Actor, audit } from '../../lib/audit.js';
import { type ChildLimits, ChildTaskFailed, runInChild } from '../../lib/child-task.js';
import type { Deps } from '../../lib/deps.js';
import { formatBytes } from '../../lib/format.js';
import { imageDimensions } from '../../lib/image-type.js';
import { readAll } from '../../lib/streams.js';
import {
  attachmentNotFound,
  cannotCombine,
  combineTooHeavy,
  combineTooLarge,
  contentMissing,
  imageTooLarge,
} from './file.errors.js';
import * as repo from './file.repository.js';

// download-many-other-files: the chosen other files in one PDF, selected_files.pdf (spec §9).
// PDFs bring their pages, PNG and JPEG images a page each; anything else refuses the call, and
// so does an image that declares more than COMBINE_MAX_PIXELS (400 naming it: the person can
// leave it out). The decoding and combining run in a child process (combine-child.mjs).

/** The most the chosen files may add up to (they are combined in memory). */
const COMBINE_MAX_BYTES = 256 * 1024 * 1024;
export const COMBINED_NAME = 'selected_files.pdf';
const COMBINABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);
/** The longer side of an image page, in points (A4 is 595 x 842). */
const PAGE_MAX = 842;
/**
 * The most pixels an image may declare (width x height). pdf-lib holds a PNG's pixels four
 * times over while it embeds them; past this an image is refused before it is decoded.
 */
const COMBINE_MAX_PIXELS = 40_000_000;
/** The child process that decodes and combines (combine-child.mjs). */
const COMBINE_LIMITS: ChildLimits = { timeoutMs: 60_000, memoryMb: 1024 };
const KIND: Record<string, 'pdf' | 'png' | 'jpeg'> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
};
const CHILD = fileURLToPath(new URL('./combine-child.mjs', import.meta.url));

/**
 * The PDF made of `items` in a bounded child process (lib/child-task.ts), so that decoding
 * and parsing never hold up the event loop; over its time or memory it is refused (413).
 */
async function combineInChild(items: Array<{ kind: 'pdf' | 'png' | 'jpeg'; bytes: Uint8Array }>) {
  try {
    return await runInChild<{ pdf: Uint8Array } | { unreadable: number }>(
      CHILD,
      { items, pageMax: PAGE_MAX },
      COMBINE_LIMITS,
    );
  } catch (err) {
    if (err instanceof ChildTaskFailed && (err.reason === 'timeout' || err.reason === 'memory'))
      throw combineTooHeavy();
    throw err;
  }
}

/** One file to put into the PDF: its name (for refusals) and its stored content. */
interface CombinePart {
  name: string;
  mimeType: string;
  size: number | bigint;
  blobId: string;
}

/**
 * `parts` as one PDF, in their order, or a refusal before any work: every part that is not a
 * PDF, PNG or JPEG is named (400 at `path`, the field that chose them), then the total size
 * and each image's declared pixels are checked; the decoding and combining run in a child.
 */
export async function combineIntoPdf(deps: Deps, parts: CombinePart[], path: string): Promise<Buffer> {
  const refused = parts.filter((p) => !COMBINABLE.has(p.mimeType)).map((p) => p.name);
  if (refused.length) throw cannotCombine(refused, path);
  const total = parts.reduce((n, p) => n + Number(p.size), 0);
  if (total > COMBINE_MAX_BYTES) throw combineTooLarge(formatBytes(COMBINE_MAX_BYTES));

  const items: Array<{ kind: 'pdf' | 'png' | 'jpeg'; bytes: Uint8Array }> = [];
  for (const p of parts) {
    if (!(await deps.blobs.exists(p.blobId))) throw contentMissing();
    const bytes = await readAll(await deps.blobs.read(p.blobId));
    if (p.mimeType !== 'application/pdf') {
      // The size an image declares, before anything decodes it: a few KB of PNG can declare
      // billions of pixels.
      const size = imageDimensions(bytes);
      if (!size) throw cannotCombine([p.name], path);
      if (size.width * size.height > COMBINE_MAX_PIXELS)
        throw imageTooLarge(p.name, size.width, size.height, COMBINE_MAX_PIXELS, path);
    }
    items.push({ kind: KIND[p.mimeType] ?? 'pdf', bytes });
  }
  const made = await combineInChild(items);
  if ('unreadable' in made) throw cannotCombine([parts[made.unreadable]?.name ?? ''], path);
  return Buffer.from(made.pdf.buffer, made.pdf.byteOffset, made.pdf.byteLength);
}

export async function combineAttachments(deps: Deps, actor: Actor, ids: number[]): Promise<Buffer> {
  const found = await repo.findAttachments(deps.db, ids);
  const byId = new Map(found.map((a) => [a.id, a]));
  const chosen = [...new Set(ids)].map((id) => byId.get(id));
  if (chosen.some((a) => !a)) throw attachmentNotFound();
  const list = chosen as typeof found;
  const pdf = await combineIntoPdf(deps, list, 'body.ids');
  await audit(deps.db, actor, {
    type: 'file',
    action: 'file.attachments_combined',
    message: `Downloaded ${list.length} other file(s) as ${COMBINED_NAME}`,
    targetType: 'file',
    targetId: list[0]?.fileId,
    details: { attachment_ids: list.map((a) => a.id), file_ids: [...new Set(list.map((a) => a.fileId))] },
  });
  return pdf;
}
