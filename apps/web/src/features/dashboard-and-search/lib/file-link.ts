import type { TFoundFile } from '@quire/contract';

/** Where a file opens in the web client (its detail page). */
export const fileLink = (id: number) => `/files/${id}`;

/** The search results page for a text. */
export const searchLink = (search: string) => `/search?q=${encodeURIComponent(search)}`;

/**
 * Where a search hit opens: for content with pages (a PDF), the file page with the preview
 * at the page of the match (`page`) and the matched words marked (`mark`, the words the
 * passage marks); for an image (a recognised scan), the words marked on it.
 */
export function foundFileLink(f: TFoundFile): string {
  const image = f.mime_type?.startsWith('image/') ?? false;
  if (!f.snippet_page && !image) return fileLink(f.id); // content without pages: the page as it is
  const words = new Set<string>();
  for (const m of (f.snippet_html ?? '').matchAll(/<mark>([^<]*)<\/mark>/g)) {
    const word = (m[1] ?? '').trim();
    if (word) words.add(word);
  }
  const q = new URLSearchParams(f.snippet_page ? { page: String(f.snippet_page) } : {});
  if (words.size) q.set('mark', [...words].slice(0, 8).join(' '));
  return q.size ? `${fileLink(f.id)}?${q}` : fileLink(f.id);
}
