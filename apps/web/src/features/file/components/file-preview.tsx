import type { TPreviewKind } from '@quire/contract';
import { type CSSProperties, useEffect, useRef, useState } from 'react';

/** A box on a page, as fractions (0 to 1) of its width and height from its top left. */
export interface MarkBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Recognised words to mark on one page (1-based): text recognition's word boxes. */
export interface PageMarks {
  page: number;
  boxes: MarkBox[];
}

const boxStyle = (b: MarkBox): CSSProperties => ({
  left: `${b.x * 100}%`,
  top: `${b.y * 100}%`,
  width: `${b.width * 100}%`,
  height: `${b.height * 100}%`,
});

/** A drawn PDF page's name: "report.pdf, page 2 (1 match marked)". */
const pageLabel = (name: string, page: number, marked: number) =>
  `${name}, page ${page}${marked ? ` (${marked} ${marked === 1 ? 'match' : 'matches'} marked)` : ''}`;

/** What the marks show, in words (the marks are never the only cue). */
function MatchCount({ count, page }: { count: number; page: number }) {
  return (
    <p className="file-preview__matches" role="status">
      {count === 0
        ? `No match marked on page ${page}`
        : `${count} ${count === 1 ? 'match' : 'matches'} on page ${page}`}
    </p>
  );
}

/**
 * Shows a file's content: a PDF drawn page by page with pdf.js, an image, or plain text.
 * `load` fetches the content (signed in, or through a public link); other types download.
 */
export function FilePreview({
  kind,
  load,
  name,
  fileName,
  startPage,
  marks,
  recognised,
}: {
  kind: TPreviewKind;
  load: () => Promise<Blob>;
  /** What the content is loaded again on (the version shown, or the link's token). */
  name: string;
  /** The file's name: the image's alt text, and the PDF pages' names ("report.pdf, page 2"). */
  fileName: string;
  /** A PDF opens scrolled to this page (1-based), drawn even past the first ten. */
  startPage?: number;
  /** Words marked on the PDF's pages where its text layer has them (a search hit). */
  marks?: string[];
  /** Boxes of recognised words to mark (a scanned page or an image), from text recognition. */
  recognised?: PageMarks;
}) {
  const [blob, setBlob] = useState<Blob | null>(null);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the kind or name changes
  useEffect(() => {
    if (kind === 'none') return;
    let live = true;
    load().then(
      (b) => live && setBlob(b),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [kind, name]);
  if (kind === 'none')
    return <p className="muted">No preview for this type of file: download it to open it.</p>;
  if (failed) return <p className="muted">The preview could not be loaded.</p>;
  if (!blob) return <p className="muted">Loading the preview…</p>;
  if (kind === 'image')
    return <ImagePreview blob={blob} name={fileName} marked={!!marks?.length} recognised={recognised} />;
  if (kind === 'text') return <TextPreview blob={blob} />;
  return (
    <PdfPreview blob={blob} name={fileName} startPage={startPage} marks={marks} recognised={recognised} />
  );
}

/** An image; the recognised words of a search drawn over it, and their count said. */
function ImagePreview({
  blob,
  name,
  marked,
  recognised,
}: {
  blob: Blob;
  name: string;
  marked: boolean;
  recognised?: PageMarks;
}) {
  const [url, setUrl] = useState('');
  useEffect(() => {
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  if (!url) return null;
  const boxes = recognised?.page === 1 ? recognised.boxes : [];
  return (
    <>
      {marked && recognised ? <MatchCount count={boxes.length} page={1} /> : null}
      <div className="file-preview__sheet">
        <img className="file-preview__image" src={url} alt={name} />
        {boxes.map((b) => (
          <span key={`${b.x},${b.y}`} className="file-preview__mark" style={boxStyle(b)} aria-hidden="true" />
        ))}
      </div>
    </>
  );
}

function TextPreview({ blob }: { blob: Blob }) {
  const [text, setText] = useState('');
  useEffect(() => {
    void blob
      .slice(0, 512 * 1024)
      .text()
      .then(setText);
  }, [blob]);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: long text scrolls inside the preview, and keys must reach it to scroll it (WCAG 2.1.1)
    <pre className="file-preview__text" tabIndex={0}>
      {text}
    </pre>
  );
}

/**
 * The first pages of a PDF (up to `startPage` when it is further on), drawn into canvases by
 * pdf.js (its own chunk, with its worker); the page `startPage` is scrolled to, `marks` are
 * painted over the words of the text layer that hold them, and the `recognised` boxes (a
 * scanned page) are drawn over their page; how many matches the page has is said in words.
 */
function PdfPreview({
  blob,
  name,
  startPage,
  marks = [],
  recognised,
}: {
  blob: Blob;
  name: string;
  startPage?: number;
  marks?: string[];
  recognised?: PageMarks;
}) {
  // The words as one string: the drawing starts again only when they change.
  const markKey = marks
    .map((m) => m.toLowerCase())
    .filter(Boolean)
    .join(' ');
  const host = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState(0);
  /** The page the count is said of, and the marks its text layer had (null: not drawn yet). */
  const countPage = startPage ?? 1;
  const [textFound, setTextFound] = useState<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    setTextFound(null);
    const marked = markKey ? markKey.split(' ') : [];
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const doc = await pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()) }).promise;
      if (cancelled) return;
      setPages(doc.numPages);
      const last = Math.min(doc.numPages, Math.max(10, startPage ?? 0));
      for (let n = 1; n <= last; n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1.2 });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.className = 'file-preview__page';
        canvas.setAttribute('role', 'img');
        canvas.dataset.page = String(n);
        // The page in a box of its own size, for the recognised words' marks to sit on.
        const sheet = document.createElement('div');
        sheet.className = 'file-preview__sheet';
        sheet.dataset.page = String(n);
        sheet.append(canvas);
        if (cancelled || !host.current) return;
        host.current.append(sheet);
        await page.render({ canvas, viewport }).promise;
        const found = marked.length ? await markWords(pdfjs, page, viewport, canvas, marked) : 0;
        canvas.setAttribute('aria-label', pageLabel(name, n, found));
        if (n === countPage && !cancelled) setTextFound(found);
        if (n === startPage) sheet.scrollIntoView?.({ block: 'start' });
      }
    })().catch(() => setPages(-1));
    return () => {
      cancelled = true;
      if (host.current) host.current.innerHTML = '';
    };
  }, [blob, name, startPage, countPage, markKey]);

  // The recognised words' boxes over their page, once it is drawn.
  const boxes = recognised?.page === countPage ? recognised.boxes : [];
  const boxKey = JSON.stringify(boxes);
  // biome-ignore lint/correctness/useExhaustiveDependencies: redrawn when the boxes (boxKey) or the page change
  useEffect(() => {
    const sheet = host.current?.querySelector<HTMLElement>(`.file-preview__sheet[data-page="${countPage}"]`);
    if (!sheet || textFound === null) return;
    const added = boxes.map((b) => {
      const mark = document.createElement('span');
      mark.className = 'file-preview__mark';
      mark.setAttribute('aria-hidden', 'true');
      Object.assign(mark.style, boxStyle(b));
      sheet.append(mark);
      return mark;
    });
    const total = textFound + boxes.length;
    sheet.querySelector('canvas')?.setAttribute('aria-label', pageLabel(name, countPage, total));
    return () => {
      for (const mark of added) mark.remove();
    };
  }, [boxKey, countPage, textFound, name]);

  return (
    <>
      {markKey && textFound !== null ? (
        <MatchCount count={textFound + boxes.length} page={countPage} />
      ) : null}
      <div className="file-preview__pdf" ref={host} data-pages={pages}>
        {pages === -1 ? <p className="muted">This PDF could not be shown.</p> : null}
      </div>
    </>
  );
}

type PdfJs = typeof import('pdfjs-dist');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;

/** Paints a translucent box over each piece of the page's text layer holding a marked word. */
async function markWords(
  pdfjs: PdfJs,
  page: PdfPage,
  viewport: ReturnType<PdfPage['getViewport']>,
  canvas: HTMLCanvasElement,
  words: string[],
): Promise<number> {
  const context = canvas.getContext('2d');
  if (!context) return 0;
  const content = await page.getTextContent();
  let found = 0;
  context.fillStyle = 'rgba(255, 213, 0, 0.45)';
  for (const item of content.items) {
    if (!('str' in item) || !words.some((w) => item.str.toLowerCase().includes(w))) continue;
    const [, , c, d, x, y] = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    const height = Math.hypot(c ?? 0, d ?? 0);
    context.fillRect(x ?? 0, (y ?? 0) - height, item.width * viewport.scale, height * 1.2);
    found += 1;
  }
  return found;
}
