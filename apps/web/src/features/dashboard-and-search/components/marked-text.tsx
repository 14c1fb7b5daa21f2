import { Fragment } from 'react';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * Shows a passage the API sent as escaped HTML with `<mark>` around the matches, as React
 * text and <mark> elements: nothing from the server is ever set as HTML.
 */
export function MarkedText({ html }: { html: string }) {
  const parts = html.split(/(<mark>|<\/mark>)/);
  let marked = false;
  const out: Array<{ text: string; marked: boolean }> = [];
  for (const part of parts) {
    if (part === '<mark>') marked = true;
    else if (part === '</mark>') marked = false;
    else if (part)
      out.push({ text: part.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e), marked });
  }
  return (
    <>
      {out.map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never reorder.
        p.marked ? <mark key={i}>{p.text}</mark> : <Fragment key={i}>{p.text}</Fragment>,
      )}
    </>
  );
}
