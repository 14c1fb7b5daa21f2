import type { TFoundFile } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { foundFileLink } from './file-link';

const found = (over: Partial<TFoundFile>): TFoundFile => ({
  id: 21,
  name: 'invoice.png',
  category: { id: 4, name: 'Invoices' },
  owner: { id: 2, name: 'Company Admin' },
  mime_type: 'image/png',
  size: 79,
  locked: false,
  checked_out: false,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  rank: 0.5,
  name_html: 'invoice.png',
  snippet_html: 'INVOICE 4711 <mark>Pellegrino</mark> Plumbing',
  snippet_page: null,
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
