import { PDFDocument } from 'pdf-lib';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { formatBytes } from '../../lib/format.js';
import { readAll } from '../../lib/streams.js';
import { attachmentNotFound, cannotCombine, combineTooLarge, contentMissing } from './file.errors.js';
import * as repo from './file.repository.js';

// download-many-other-files: the chosen other files in one PDF, selected_files.pdf (spec §9).
// PDFs bring their pages, PNG and JPEG images a page each; anything else refuses the call.

/** The most the chosen files may add up to (they are combined in memory). */
export const COMBINE_MAX_BYTES = 256 * 1024 * 1024;
export const COMBINED_NAME = 'selected_files.pdf';
const COMBINABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);
/** The longer side of an image page, in points (A4 is 595 x 842). */
const PAGE_MAX = 842;

export async function combineAttachments(deps: Deps, actor: Actor, ids: number[]): Promise<Buffer> {
  const found = await repo.findAttachments(deps.db, ids);
  const byId = new Map(found.map((a) => [a.id, a]));
  const chosen = [...new Set(ids)].map((id) => byId.get(id));
  if (chosen.some((a) => !a)) throw attachmentNotFound();
  const list = chosen as typeof found;
  // Every one is checked before any is read: all or nothing.
  for (const a of list) if (!COMBINABLE.has(a.mimeType)) throw cannotCombine(a.name);
  const total = list.reduce((n, a) => n + Number(a.size), 0);
  if (total > COMBINE_MAX_BYTES) throw combineTooLarge(formatBytes(COMBINE_MAX_BYTES));

  const out = await PDFDocument.create();
  for (const a of list) {
    if (!(await deps.blobs.exists(a.blobId))) throw contentMissing();
    const bytes = await readAll(await deps.blobs.read(a.blobId));
    try {
      if (a.mimeType === 'application/pdf') {
        const src = await PDFDocument.load(bytes);
        for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
      } else {
        const image = a.mimeType === 'image/png' ? await out.embedPng(bytes) : await out.embedJpg(bytes);
        const scale = Math.min(1, PAGE_MAX / Math.max(image.width, image.height));
        const w = image.width * scale;
        const h = image.height * scale;
        out.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
      }
    } catch {
      // An encrypted or damaged PDF, an image pdf-lib cannot read.
      throw cannotCombine(a.name);
    }
  }
  const pdf = Buffer.from(await out.save());
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
