import type { TFieldFilter, TFilterFilesBody } from '@quire/contract';

// The search results page keeps its whole state in the URL, so a search can be bookmarked
// and shared: ?q=text&page=2&category=4&from=2026-01-01&to=2026-03-31&owner=7&step=3
// &locked=1&checked_out=0&field=12&value=Acme (or &min=&max=, or &keys=3,4).

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
