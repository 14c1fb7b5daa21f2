// Text extraction, run in a child process of its own (text-extraction.ts runs it through
// lib/child-task.ts, with a heap limit, --max-old-space-size, and a time limit): a hostile file
// can exhaust only this process. Plain JavaScript so that it runs the same under tsx, the test
// runner and a built server.
//
// In: one IPC message { bytes: Uint8Array, kind: 'pdf' | 'docx' | 'xlsx' | 'text' | 'html', maxChars }.
// Out: one IPC message { text, truncated, pages? } or { error }, then exit. A PDF's `pages`
// holds each page's text (joined by a line break they make `text`), so a match can name its
// page and pages without text can be given to text recognition.
import { cleanText } from './clean-text.mjs';

const { bytes, kind, maxChars } = await new Promise((resolve) => process.once('message', resolve));

/** Collects text up to maxChars; `full` turns true once the cap is reached. */
function collector() {
  const parts = [];
  const pageStarts = [];
  let length = 0;
  return {
    get full() {
      return length >= maxChars;
    },
    /** Starts a page: what is added from now on belongs to it. */
    page() {
      pageStarts.push(parts.length);
    },
    add(piece) {
      if (!piece || length >= maxChars) return;
      const room = maxChars - length;
      const kept = piece.length > room ? piece.slice(0, room) : piece;
      parts.push(kept);
      length += kept.length;
    },
    done() {
      const pages = pageStarts.length
        ? pageStarts.map((from, i) => parts.slice(from, pageStarts[i + 1] ?? parts.length).join(''))
        : undefined;
      return { text: parts.join(''), truncated: length >= maxChars, pages };
    },
  };
}

async function pdf() {
  const { getDocumentProxy } = await import('unpdf');
  const doc = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false });
  const out = collector();
  for (let n = 1; n <= doc.numPages && !out.full; n++) {
    out.page();
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    for (const item of content.items) {
      if ('str' in item) out.add(item.hasEOL ? `${item.str}\n` : `${item.str} `);
    }
    out.add('\n');
    page.cleanup();
  }
  await doc.cleanup?.();
  return out.done();
}

async function docx() {
  const mammoth = (await import('mammoth')).default;
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  const out = collector();
  out.add(value);
  return out.done();
}

async function xlsx() {
  // The hardened reader of the spreadsheet imports (bounded parts, capped cells, no evaluation),
  // imported as TypeScript through Node's type stripping (lib/child-task.ts turns it on).
  const { eachSheetLine } = await import('../../lib/spreadsheet.ts');
  const out = collector();
  await eachSheetLine(Buffer.from(bytes), (cells) => {
    out.add(`${cells.join(' ')}\n`);
    return !out.full;
  });
  return out.done();
}

function text() {
  const out = collector();
  out.add(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  return out.done();
}

async function html() {
  const { Parser } = await import('htmlparser2');
  const out = collector();
  const skip = new Set(['script', 'style', 'noscript', 'template']);
  let skipping = 0;
  const block = /^(p|div|br|li|tr|td|th|h[1-6]|section|article|header|footer|pre|blockquote|title)$/;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (skip.has(name)) skipping += 1;
        if (block.test(name)) out.add('\n');
      },
      ontext(data) {
        if (!skipping) out.add(data);
      },
      onclosetag(name) {
        if (skip.has(name) && skipping > 0) skipping -= 1;
        if (block.test(name)) out.add('\n');
      },
    },
    { decodeEntities: true },
  );
  parser.write(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  parser.end();
  return out.done();
}

const extractors = { pdf, docx, xlsx, text, html };

try {
  const result = await extractors[kind]();
  const pages = result.pages?.map(cleanText);
  process.send(
    { text: pages ? pages.join('\n') : cleanText(result.text), truncated: result.truncated, pages },
    () => process.exit(0),
  );
} catch (err) {
  process.send({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(0));
}
