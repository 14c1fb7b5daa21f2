import type { TFilterFilesBody } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { readSearch, searchParamsOf, searchPath, searchQueryOf } from './search-params';

// A saved view opens the search page by its URL: the query written by searchParamsOf must read
// back (readSearch) as the same search call.

const roundTrip = (query: TFilterFilesBody) => searchQueryOf(readSearch(searchParamsOf(query)));

describe('search URL of a query', () => {
  it.each<[string, TFilterFilesBody]>([
    ['text alone', { search: 'invoice' }],
    [
      'every filter',
      {
        search: 'board minutes',
        category_id: 4,
        startDate: '2026-01-01',
        endDate: '2026-03-31',
        owner_id: 7,
        workflow_step_id: 3,
        locked: true,
        checked_out: false,
      },
    ],
    ['value-list keys', { fields: [{ field_id: 12, keys: [3, 4] }] }],
    ['a number range', { fields: [{ field_id: 8, min: 10, max: 250.5 }] }],
    ['a date range', { fields: [{ field_id: 9, min: '2026-01-01', max: '2026-02-01' }] }],
    ['a text that looks like a number', { fields: [{ field_id: 5, value: '0042' }] }],
    ['a number value', { fields: [{ field_id: 5, value: 42 }] }],
  ])('reads back %s', (_, query) => {
    expect(roundTrip(query)).toEqual(query);
  });

  it('leaves out what the page does not keep, and is the search page', () => {
    expect(searchPath({ search: 'a&b', include_subcategories: true, fields: [] })).toBe('/search?q=a%26b');
    expect(searchQueryOf(readSearch(new URLSearchParams('page=2')))).toBeNull();
    expect(searchQueryOf(readSearch(new URLSearchParams('q=++x++&page=2')))).toEqual({ search: 'x' });
  });
});
