import type { TPreviewKind } from '@quire/contract';
import { useEffect, useRef, useState } from 'react';

/**
 * Shows a file's content: a PDF drawn page by page with pdf.js, an image, or plain text.
 * `load` fetches the content (signed in, or through a public link); other types download.
 */
export function FilePreview({
  kind,
  load,
  name,
  fileName,
}: {
  kind: TPreviewKind;
  load: () => Promise<Blob>;
  /** What the content is loaded again on (the version shown, or the link's token). */
  name: string;
  /** The file's name: the image's alt text, and the PDF pages' names ("report.pdf, page 2"). */
  fileName: string;
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
  if (kind === 'image') return <ImagePreview blob={blob} name={fileName} />;
  if (kind === 'text') return <TextPreview blob={blob} />;
  return <PdfPreview blob={blob} name={fileName} />;
}

function ImagePreview({ blob, name }: { blob: Blob; name: string }) {
  const [url, setUrl] = useState('');
  useEffect(() => {
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url ? <img className="file-preview__image" src={url} alt={name} /> : null;
}

function TextPreview({ blob }: { blob: Blob }) {
  const [text, setText] = useState('');
  useEffect(() => {
    void blob
      .slice(0, 512 * 1024)
      .text()
      .then(setText);
  }, [blob]);
  return <pre className="file-preview__text">{text}</pre>;
}

/** The first pages of a PDF, drawn into canvases by pdf.js (its own chunk, with its worker). */
function PdfPreview({ blob, name }: { blob: Blob; name: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState(0);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const doc = await pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()) }).promise;
      if (cancelled) return;
      setPages(doc.numPages);
      for (let n = 1; n <= Math.min(doc.numPages, 10); n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1.2 });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.className = 'file-preview__page';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `${name}, page ${n}`);
        if (cancelled || !host.current) return;
        host.current.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
    })().catch(() => setPages(-1));
    return () => {
      cancelled = true;
      if (host.current) host.current.innerHTML = '';
    };
  }, [blob, name]);
  return (
    <div className="file-preview__pdf" ref={host} data-pages={pages}>
      {pages === -1 ? <p className="muted">This PDF could not be shown.</p> : null}
    </div>
  );
}
