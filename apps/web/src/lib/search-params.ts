import type { TFieldFilter, TFilterFilesBody } from '@quire/contract';

// The search results page keeps its whole state in the URL, so a search can be bookmarked
// and shared: ?q=text&page=2&category=4&from=2026-01-01&to=2026-03-31&owner=7&step=3
// &locked=1&checked_out=0&field=12&value=Acme (or &min=&max=, or &keys=3,4). Shared: the
// search page reads it, and a saved view opens the search by it (searchPath).

export interface SearchState {
  q: string;
  page: number;
  filters: TFilterFilesBody | null;
}

const int = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
const bool = (v: string | null) => (v === '1' ? true : v === '0' ? false : undefined);
const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);

function fieldFilter(p: URLSearchParams): TFieldFilter | undefined {
  const field = int(p.get('field'));
  if (!field) return undefined;
  const keys = (p.get('keys') ?? '')
    .split(',')
    .map((k) => int(k.trim()))
    .filter((k): k is number => k !== undefined);
  if (keys.length) return { field_id: field, keys };
  const asValue = (v: string) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v);
  const min = p.get('min');
  const max = p.get('max');
  if (min || max)
    return {
      field_id: field,
      ...(min ? { min: asValue(min) as number | string } : {}),
      ...(max ? { max: asValue(max) as number | string } : {}),
    };
  const value = p.get('value');
  if (value) return { field_id: field, value: p.get('type') === 'text' ? value : asValue(value) };
  return undefined;
}

export function readSearch(p: URLSearchParams): SearchState {
  const filters: TFilterFilesBody = {};
  const category = int(p.get('category'));
  if (category) filters.category_id = category;
  const from = day(p.get('from'));
  const to = day(p.get('to'));
  if (from) filters.startDate = from;
  if (to) filters.endDate = to;
  const owner = int(p.get('owner'));
  if (owner) filters.owner_id = owner;
  const step = int(p.get('step'));
  if (step) filters.workflow_step_id = step;
  const locked = bool(p.get('locked'));
  if (locked !== undefined) filters.locked = locked;
  const checkedOut = bool(p.get('checked_out'));
  if (checkedOut !== undefined) filters.checked_out = checkedOut;
  const field = fieldFilter(p);
  if (field) filters.fields = [field];
  return {
    q: p.get('q') ?? '',
    page: Math.max(1, int(p.get('page')) ?? 1),
    filters: Object.keys(filters).length ? filters : null,
  };
}

/** The URL's parameters with `changes` applied (empty values removed); a filter change goes back to page 1. */
export function withChanges(p: URLSearchParams, changes: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(p);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  if (!('page' in changes)) next.delete('page');
  return next;
}

/** The search call's query (POST /api/filter-files's body, the text as `search`) of a URL state. */
export function searchQueryOf({ q, filters }: SearchState): TFilterFilesBody | null {
  const text = q.trim();
  if (!filters && !text) return null;
  return { ...filters, ...(text ? { search: text } : {}) };
}

/** The URL parameters that readSearch turns back into `query` (the first field filter only). */
export function searchParamsOf(query: TFilterFilesBody): URLSearchParams {
  const p = new URLSearchParams();
  // Ids are typed `unknown` on input (the contract coerces them): each is written as it is given.
  const set = (k: string, v: unknown) => {
    if (v !== undefined && v !== null) p.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  };
  set('q', query.search);
  set('category', query.category_id);
  set('from', query.startDate);
  set('to', query.endDate);
  set('owner', query.owner_id);
  set('step', query.workflow_step_id);
  set('locked', query.locked);
  set('checked_out', query.checked_out);
  const field = query.fields?.[0];
  if (field) {
    set('field', field.field_id);
    if (field.keys) set('keys', field.keys.join(','));
    set('min', field.min);
    set('max', field.max);
    if (field.value !== undefined) {
      set('value', typeof field.value === 'boolean' ? String(field.value) : field.value);
      if (typeof field.value === 'string') set('type', 'text');
    }
  }
  return p;
}

/** The search page showing `query`'s results. */
export const searchPath = (query: TFilterFilesBody) => `/search?${searchParamsOf(query)}`;
