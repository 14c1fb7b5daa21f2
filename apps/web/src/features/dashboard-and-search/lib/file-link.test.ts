import type { TFoundFile } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { aFoundFile } from '../../../testing/fixtures';
import { foundFileLink } from './file-link';

const found = (over: Partial<TFoundFile>): TFoundFile =>
  aFoundFile({
    id: 21,
    name: 'invoice.png',
    mime_type: 'image/png',
    snippet_html: 'INVOICE 4711 <mark>Pellegrino</mark> Plumbing',
    ...over,
  });

describe('foundFileLink', () => {
  it('opens a recognised image with the matched words to mark (it has no pages)', () => {
    expect(foundFileLink(found({}))).toBe('/files/21?mark=Pellegrino');
  });

  it('opens an image matched by its name only, or a file without pages, as it is', () => {
    expect(foundFileLink(found({ snippet_html: null }))).toBe('/files/21');
    expect(foundFileLink(found({ mime_type: 'text/plain', name: 'notes.txt' }))).toBe('/files/21');
  });

  it('opens a PDF at the page of the match with its words', () => {
    expect(
      foundFileLink(
        found({
          mime_type: 'application/pdf',
          snippet_html: 'the <mark>platypus</mark> <mark>order</mark>',
          snippet_page: 2,
        }),
      ),
    ).toBe('/files/21?page=2&mark=platypus+order');
  });
});
