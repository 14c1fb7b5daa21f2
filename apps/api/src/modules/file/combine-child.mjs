// The combined PDF of download-many-other-files, made in a child process of its own
// (combine.service.ts runs it through lib/child-task.ts, with a heap limit and a time limit):
// decoding a PNG and parsing a PDF are CPU work that a hostile file can make long or huge, and
// on the server's event loop they would hold up every other call. Plain JavaScript so that it
// runs the same under tsx, the test runner and a built server.
//
// In: one IPC message { items: [{ kind: 'pdf' | 'png' | 'jpeg', bytes: Uint8Array }], pageMax }.
// Out: one IPC message { pdf: Uint8Array }, { unreadable: index of the item pdf-lib could not
// read }, or { error }, then exit.
import { PDFDocument } from 'pdf-lib';

const { items, pageMax } = await new Promise((resolve) => process.once('message', resolve));

async function combine() {
  const out = await PDFDocument.create();
  for (const [index, { kind, bytes }] of items.entries()) {
    try {
      if (kind === 'pdf') {
        const src = await PDFDocument.load(bytes);
        for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
      } else {
        const image = kind === 'png' ? await out.embedPng(bytes) : await out.embedJpg(bytes);
        const scale = Math.min(1, pageMax / Math.max(image.width, image.height));
        const w = image.width * scale;
        const h = image.height * scale;
        out.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
      }
    } catch {
      // An encrypted or damaged PDF, an image pdf-lib cannot read.
      return { unreadable: index };
    }
  }
  return { pdf: await out.save() };
}

try {
  process.send(await combine(), () => process.exit(0));
} catch (err) {
  process.send({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(0));
}
