import type {
  DashboardTable,
  TDashboard,
  TFieldFilter,
  TFileBrief,
  TFilterAttributes,
  TFilterFilesInput,
  TFoundFile,
  TFoundPage,
} from '@quire/contract';
import { DASHBOARD_TABLES } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { nextCursor, parseCursor } from '../../lib/file-cursor.js';
import type { AuthContext } from '../../lib/session.js';
import { type Scope, scopeOf } from '../../lib/visibility.js';
import { withKeptSeenSets } from '../../lib/visible-sets.js';
import { conditionDoesNotFit, cursorWithSearch, unknownField } from './dashboard-and-search.errors.js';
import * as repo from './dashboard-and-search.repository.js';
import * as searchRepo from './search.repository.js';
import * as conditions from './search-conditions.repository.js';
import * as filtersRepo from './search-filters.repository.js';

// The dashboard, the search and the filters. Every query is scoped to what the caller may see
// (the caller's sets, lib/visible-sets.ts: read once a request, or kept between a list's calls and checked by its statements); counts stop at 10,000 ("10,000+").

const personName = (first: string, last: string, username: string) => `${first} ${last}`.trim() || username;

export function toSummary(r: repo.SummaryRow): TFileBrief {
  return {
    id: r.id,
    name: r.name,
    category: r.category_id === null ? null : { id: r.category_id, name: r.category_name ?? '' },
    owner: { id: r.owner_id, name: personName(r.owner_first_name, r.owner_last_name, r.owner_username) },
    mime_type: r.mime_type,
    size: r.size === null ? null : Number(r.size),
    locked: r.locked,
    checked_out: r.checked_out,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const counted = (total: number) => ({
  total: Math.min(total, repo.COUNT_CAP),
  total_exact: total <= repo.COUNT_CAP,
});

function pageOf<T>(items: T[], q: { page: number; quantity: number }, total: number) {
  const { total: shown, total_exact } = counted(total);
  return {
    items,
    page: q.page,
    quantity: q.quantity,
    total: shown,
    total_exact,
    last_page: Math.max(1, Math.ceil(shown / q.quantity)),
  };
}

// ---- dashboard ------------------------------------------------------------------------------

export async function dashboard(
  deps: Deps,
  auth: AuthContext,
  q: { page: number; quantity: number; table?: DashboardTable },
): Promise<TDashboard> {
  const window = { limit: q.quantity, offset: (q.page - 1) * q.quantity };
  const tables = q.table ? [q.table] : DASHBOARD_TABLES;
  // The tables by the caller's sets, kept between calls and checked by every statement
  // (lib/visible-sets.ts): read again, and the tables with them, when one saw another epoch.
  const { read } = await withKeptSeenSets(deps.db, scopeOf(auth), async (seen) => {
    const read = await Promise.all(
      tables.map(
        async (table) =>
          [table, await repo.dashboardTable(deps.db, repo.dashboardSql[table](seen, window))] as const,
      ),
    );
    return { read, epochs: read.flatMap(([, page]) => page.epochs) };
  });
  const pages = read.map(([table, { rows, total }]) => {
    const items = rows.map((r) => ({
      file: toSummary(r),
      at: r.at.toISOString(),
      task:
        r.task_id === null
          ? null
          : {
              id: r.task_id,
              step: { id: r.step_id as number, name: r.step_name ?? '' },
              workflow: { id: r.workflow_id as number, name: r.workflow_name ?? '' },
              due_at: r.due_at ? r.due_at.toISOString() : null,
            },
    }));
    return [table, pageOf(items, q, total)] as const;
  });
  return Object.fromEntries(pages);
}

// ---- search ---------------------------------------------------------------------------------

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** A ts_headline passage as HTML: the text escaped, the matches in <mark>. */
export function markedHtml(snippet: string): string {
  return escapeHtml(snippet)
    .replaceAll(searchRepo.MARK_START, '<mark>')
    .replaceAll(searchRepo.MARK_END, '</mark>');
}

/** The name as HTML, each place a search word (or the start of one) occurs in <mark>. */
export function highlightName(name: string, words: string[]): string {
  // A list without search words (most calls): nothing to mark, one escape of the whole name.
  if (!words.length) return escapeHtml(name);
  const lower = name.toLowerCase();
  const marked = new Array<boolean>(name.length).fill(false);
  for (const w of words) {
    for (let at = lower.indexOf(w); at !== -1; at = lower.indexOf(w, at + 1))
      for (let i = at; i < at + w.length; i++) marked[i] = true;
  }
  let html = '';
  let open = false;
  for (let i = 0; i < name.length; i++) {
    if (marked[i] && !open) html += '<mark>';
    if (!marked[i] && open) html += '</mark>';
    open = marked[i] as boolean;
    html += escapeHtml(name[i] as string);
  }
  return open ? `${html}</mark>` : html;
}

async function found(
  deps: Deps,
  scope: Scope,
  search: string | undefined,
  filter: conditions.FileFilter,
  q: { page: number; quantity: number; cursor?: string },
  withSnippets: boolean,
): Promise<TFoundPage> {
  const terms = search ? conditions.searchTerms(search) : null;
  if (q.cursor && terms) throw cursorWithSearch();
  const before = q.cursor ? parseCursor(q.cursor) : undefined;
  const window = { limit: q.quantity, offset: before ? 0 : (q.page - 1) * q.quantity, before };
  const { rows, total } = await searchRepo.findFilesFor(deps.db, scope, terms, filter, window);
  const words = search ? (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8) : [];
  const snippets =
    terms && withSnippets
      ? await searchRepo.snippets(
          deps.db,
          rows.map((r) => r.id),
          terms,
          words[0] ?? '',
        )
      : new Map<number, { snippet: string; page: number | null }>();
  const items: TFoundFile[] = rows.map((r) => {
    const snippet = snippets.get(r.id);
    return {
      ...toSummary(r),
      rank: Number(r.rank),
      name_html: highlightName(r.name, words),
      snippet_html: snippet ? markedHtml(snippet.snippet) : null,
      snippet_page: snippet?.page ?? null,
    };
  });
  // Lists without search words are newest first: the cursor of the page after this one.
  const next = terms ? {} : { next_cursor: nextCursor(rows, q.quantity) };
  return { ...pageOf(items, q, total), ...next };
}

/** The search results page and the header's suggestions: by rank, with passages. */
export function searchFiles(
  deps: Deps,
  auth: AuthContext,
  q: { search: string; page: number; quantity: number },
) {
  return found(deps, scopeOf(auth), q.search, {}, q, true);
}

// ---- filters --------------------------------------------------------------------------------

export async function filterAttributes(deps: Deps, auth: AuthContext): Promise<TFilterAttributes> {
  const scope = scopeOf(auth);
  const categories = await filtersRepo.visibleCategories(deps.db, scope);
  const ids = categories.map((c) => c.id);
  const [fields, owners, steps] = await Promise.all([
    filtersRepo.fieldsOfCategories(deps.db, ids),
    filtersRepo.ownersOfVisibleFiles(deps.db, scope),
    filtersRepo.stepsOfCategories(deps.db, ids),
  ]);
  return {
    categories,
    fields: fields.map((f) => ({
      id: f.id,
      name: f.name,
      type: f.type,
      items: f.type === 'select' ? (f.valueList?.items ?? []) : null,
    })),
    owners: owners.map((o) => ({ id: o.id, name: personName(o.first_name, o.last_name, o.username) })),
    workflow_steps: steps,
  };
}

const DAY_MS = 24 * 3_600_000;

/** Checks each metadata condition against its field's type (400 naming the condition) and resolves value-list keys. */
async function fieldConditions(deps: Deps, filters: TFieldFilter[]): Promise<conditions.FieldCondition[]> {
  if (!filters.length) return [];
  const fields = new Map(
    (
      await filtersRepo.fieldsByIds(
        deps.db,
        filters.map((f) => f.field_id),
      )
    ).map((f) => [f.id, f]),
  );
  const out: conditions.FieldCondition[] = [];
  for (const [i, f] of filters.entries()) {
    const field = fields.get(f.field_id);
    if (!field) throw unknownField(i, f.field_id);
    const range = f.min !== undefined || f.max !== undefined;
    const wrong = (what: string, message: string) => conditionDoesNotFit(i, what, message);
    switch (field.type) {
      case 'text':
        if (typeof f.value !== 'string')
          throw wrong(range ? 'min' : f.keys ? 'keys' : 'value', `"${field.name}" is text: give a value`);
        out.push({ fieldId: field.id, kind: 'text', value: f.value });
        break;
      case 'number': {
        if (f.keys) throw wrong('keys', `"${field.name}" is a number: give a value or min/max`);
        if (f.value !== undefined && typeof f.value !== 'number') throw wrong('value', 'Give a number');
        if (
          (f.min !== undefined && typeof f.min !== 'number') ||
          (f.max !== undefined && typeof f.max !== 'number')
        )
          throw wrong(typeof f.min !== 'number' ? 'min' : 'max', 'Give a number');
        const min = (f.value ?? f.min ?? null) as number | null;
        const max = (f.value ?? f.max ?? null) as number | null;
        if (min !== null && max !== null && min > max) throw wrong('max', 'The maximum is below the minimum');
        out.push({ fieldId: field.id, kind: 'number', min, max });
        break;
      }
      case 'date': {
        if (f.keys) throw wrong('keys', `"${field.name}" is a date: give a value or min/max`);
        const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
        if (f.value !== undefined && !isDate(f.value)) throw wrong('value', 'Give a date (YYYY-MM-DD)');
        if ((f.min !== undefined && !isDate(f.min)) || (f.max !== undefined && !isDate(f.max)))
          throw wrong(f.min !== undefined && !isDate(f.min) ? 'min' : 'max', 'Give a date (YYYY-MM-DD)');
        const min = ((f.value ?? f.min) as string | undefined) ?? null;
        const max = ((f.value ?? f.max) as string | undefined) ?? null;
        if (min !== null && max !== null && min > max) throw wrong('max', 'The end is before the start');
        out.push({ fieldId: field.id, kind: 'date', min, max });
        break;
      }
      case 'boolean':
        if (typeof f.value !== 'boolean')
          throw wrong(range ? 'min' : f.keys ? 'keys' : 'value', 'Give true or false');
        out.push({ fieldId: field.id, kind: 'boolean', value: f.value });
        break;
      case 'select': {
        if (range) throw wrong('min', `"${field.name}" is a value list: give keys or a value`);
        const listId = field.valueListId as number;
        const itemIds = f.keys
          ? await filtersRepo.itemIdsByKeys(deps.db, listId, f.keys)
          : typeof f.value === 'number'
            ? await filtersRepo.itemIdsByKeys(deps.db, listId, [f.value])
            : await filtersRepo.itemIdsByLabel(deps.db, listId, String(f.value));
        // Keys that name no item match nothing (an empty list matches no file).
        out.push({ fieldId: field.id, kind: 'items', itemIds });
        break;
      }
      case 'user':
        if (typeof f.value !== 'number' || !Number.isInteger(f.value))
          throw wrong(range ? 'min' : f.keys ? 'keys' : 'value', 'Give the id of a user');
        out.push({ fieldId: field.id, kind: 'user', userId: f.value });
        break;
    }
  }
  return out;
}

export async function filterFiles(
  deps: Deps,
  auth: AuthContext,
  body: TFilterFilesInput,
  q: { page: number; quantity: number; cursor?: string },
): Promise<TFoundPage> {
  const filter: conditions.FileFilter = {
    categoryId: body.category_id,
    includeSubcategories: body.include_subcategories,
    from: body.startDate ? new Date(`${body.startDate}T00:00:00Z`) : undefined,
    to: body.endDate ? new Date(new Date(`${body.endDate}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    ownerId: body.owner_id,
    workflowStepId: body.workflow_step_id,
    locked: body.locked,
    checkedOut: body.checked_out,
    fields: await fieldConditions(deps, body.fields),
  };
  return found(deps, scopeOf(auth), body.search, filter, q, true);
}
