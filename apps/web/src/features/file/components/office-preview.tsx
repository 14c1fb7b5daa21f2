import { useOfficePreview } from '../api/get-office-preview';

// The page's look inside the frame: the app's colours are not reachable from a sandboxed
// document, so plain readable defaults (it follows the light or dark scheme of the system).
const FRAME_STYLE = `
  :root { color-scheme: light dark; font: 15px/1.5 system-ui, sans-serif; }
  body { margin: 1rem; overflow-wrap: anywhere; }
  table { border-collapse: collapse; margin-bottom: 1.5rem; }
  td, th { border: 1px solid #8886; padding: 0.2rem 0.5rem; vertical-align: top; }
  h2 { font-size: 1rem; }
  a { pointer-events: none; }
`;

/**
 * A DOCX or XLSX on the file page, from the HTML the server made of it (never the original,
 * so a view-only person sees it too), in a sandboxed frame: nothing in it runs, no link in it
 * leads anywhere.
 */
export function OfficePreview({
  fileId,
  versionId,
  fileName,
}: {
  fileId: number;
  versionId: number;
  fileName: string;
}) {
  const preview = useOfficePreview(fileId, versionId);
  if (preview.isPending) return <p className="muted">Loading the preview…</p>;
  if (!preview.data)
    return (
      <p className="muted">
        {preview.error instanceof Error && preview.error.message
          ? preview.error.message
          : 'The preview could not be loaded.'}
      </p>
    );
  const { html, truncated, kind } = preview.data;
  return (
    <>
      <iframe
        className="file-preview__office"
        title={`${fileName} (${kind === 'docx' ? 'document' : 'spreadsheet'} preview)`}
        sandbox=""
        srcDoc={`<!doctype html><meta charset="utf-8"><style>${FRAME_STYLE}</style>${html}`}
      />
      {truncated ? (
        <p className="muted">
          Only the beginning is shown{kind === 'xlsx' ? ' (the first 500 rows of the first sheets)' : ''}.
        </p>
      ) : null}
    </>
  );
}
