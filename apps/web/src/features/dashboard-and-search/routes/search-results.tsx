import type { TFilterAttributes, TFilterFilesBody, TFoundFile } from '@quire/contract';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BulkFileActions } from '../../../components/bulk-file-actions';
import { EmptyText, QueryState, Timestamp } from '../../../components/data-table';
import { DateRangePicker } from '../../../components/date-range-picker';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useRangeSelection } from '../../../components/range-selection';
import { SortableTable, type TableColumn } from '../../../components/sortable-table';
import { readSearch, searchQueryOf, withChanges } from '../../../lib/search-params';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useFilterAttributes } from '../api/filter-attributes';
import { useFoundFiles } from '../api/find-files';
import { FileCell } from '../components/file-row';
import { MarkedText } from '../components/marked-text';
import { foundFileLink } from '../lib/file-link';

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: Array<{ value: string; label: string }>;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select className="control" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A number or date field's two ends: its address key and the word its label ends with. */
const RANGE_ENDS = [
  { key: 'min', word: 'from' },
  { key: 'max', word: 'to' },
] as const;

function Filters({ attributes }: { attributes: TFilterAttributes | undefined }) {
  const [params, setParams] = useSearchParams();
  const set = (changes: Record<string, string | null>) => setParams(withChanges(params, changes));
  const fieldId = params.get('field') ?? '';
  const field = attributes?.fields.find((f) => String(f.id) === fieldId);
  const from = params.get('from');
  const to = params.get('to');
  const yesNo = [
    { value: '1', label: 'Yes' },
    { value: '0', label: 'No' },
  ];
  return (
    <section className="card search-filters" aria-label="Filters">
      <Select
        label="Category"
        value={params.get('category') ?? ''}
        onChange={(v) => set({ category: v })}
        options={(attributes?.categories ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
      />
      <DateRangePicker
        label="Created"
        value={from && to ? { from, to } : null}
        onChange={(r) => set({ from: r?.from ?? null, to: r?.to ?? null })}
      />
      <Select
        label="Owner"
        value={params.get('owner') ?? ''}
        onChange={(v) => set({ owner: v })}
        options={(attributes?.owners ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
      />
      <Select
        label="Workflow step"
        value={params.get('step') ?? ''}
        onChange={(v) => set({ step: v })}
        options={(attributes?.workflow_steps ?? []).map((s) => ({
          value: String(s.id),
          label: `${s.workflow.name}: ${s.name}`,
        }))}
      />
      <Select
        label="Locked"
        value={params.get('locked') ?? ''}
        onChange={(v) => set({ locked: v })}
        options={yesNo}
      />
      <Select
        label="Checked out"
        value={params.get('checked_out') ?? ''}
        onChange={(v) => set({ checked_out: v })}
        options={yesNo}
      />
      <Select
        label="Metadata field"
        value={fieldId}
        onChange={(v) => set({ field: v, value: null, min: null, max: null, keys: null, type: null })}
        options={(attributes?.fields ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
      />
      {field?.type === 'select' ? (
        <Select
          label={`${field.name} is`}
          value={params.get('keys') ?? ''}
          onChange={(v) => set({ keys: v })}
          options={(field.items ?? []).map((i) => ({ value: String(i.key), label: i.label }))}
        />
      ) : field?.type === 'number' || field?.type === 'date' ? (
        RANGE_ENDS.map(({ key, word }) => (
          <label key={key} className="field">
            <span>
              {field.name} {word}
            </span>
            <input
              className="control"
              type={field.type === 'date' ? 'date' : 'number'}
              value={params.get(key) ?? ''}
              onChange={(e) => set({ [key]: e.target.value })}
            />
          </label>
        ))
      ) : field ? (
        <label className="field">
          <span>{field.name} is</span>
          <input
            className="control"
            value={params.get('value') ?? ''}
            onChange={(e) => set({ value: e.target.value, type: field.type === 'text' ? 'text' : null })}
          />
        </label>
      ) : null}
    </section>
  );
}

const COLUMNS: TableColumn<TFoundFile>[] = [
  {
    id: 'file',
    label: 'File',
    isRowHeader: true,
    cell: (f) => <FileCell file={f} to={foundFileLink(f)} nameHtml={<MarkedText html={f.name_html} />} />,
  },
  {
    id: 'snippet',
    label: 'Where it matched',
    cell: (f) =>
      f.snippet_html ? (
        <span className="search-snippet">
          <MarkedText html={f.snippet_html} />
          {f.snippet_page ? <span className="muted"> (page {f.snippet_page})</span> : null}
        </span>
      ) : (
        <span className="muted">Its name</span>
      ),
  },
  { id: 'owner', label: 'Owner', cell: (f) => f.owner.name },
  { id: 'changed', label: 'Changed', cell: (f) => <Timestamp iso={f.updated_at} /> },
];

/** The found files of one page, selectable for the bulk actions (Shift-click for a range). */
function FoundFiles({ items, busy }: { items: TFoundFile[]; busy: boolean }) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const ids = items.map((f) => f.id);
  const shown = new Set(ids.filter((id) => selected.has(id)));
  const range = useRangeSelection(ids, shown, setSelected);
  return (
    <div {...range.captureProps}>
      <SortableTable
        label="Files found"
        columns={COLUMNS}
        rows={items}
        rowKey={(f) => f.id}
        busy={busy}
        selected={shown}
        onSelectionChange={(s) =>
          s === 'all' ? setSelected(new Set(ids)) : range.onSelectionChange(new Set([...s].map(Number)))
        }
        bulkActions={(keys) => (
          <BulkFileActions ids={[...keys].map(Number)} onDone={() => setSelected(new Set())} />
        )}
      />
    </div>
  );
}

/** What other areas add to the search page (the app layer passes them: app/routes/search.tsx). */
export interface SearchPageSlots {
  /** Beside the Search button, for the search shown (null: nothing searched yet). */
  actions?: (query: TFilterFilesBody | null) => ReactNode;
  /** Under the filters. */
  aside?: ReactNode;
}

/** The search results: the matching files with where they matched, filters and the search in the URL. */
export function SearchResultsPage({ actions, aside }: SearchPageSlots = {}) {
  const [params, setParams] = useSearchParams();
  const state = readSearch(params);
  const { q, page, filters } = state;
  const attributes = useFilterAttributes();
  const query = useFoundFiles(q, filters, page);
  useFailureToast(query.error, query.errorUpdatedAt, 'Failed to search files');
  const data = query.data;
  const searching = Boolean(q) || Boolean(filters);
  return (
    <>
      <PageHeader title={q ? `Search: ${q}` : 'Find files'} />
      <search>
        <form
          className="search-bar"
          onSubmit={(e) => {
            e.preventDefault();
            const text = String(new FormData(e.currentTarget).get('q') ?? '').trim();
            setParams(withChanges(params, { q: text }));
          }}
        >
          <label className="field search-bar__field">
            <span>Search</span>
            <input
              name="q"
              className="control"
              defaultValue={q}
              key={q}
              placeholder="Name, metadata, tags, comments or content"
            />
          </label>
          <button type="submit" className="button">
            Search
          </button>
          {actions?.(searchQueryOf(state))}
        </form>
      </search>
      <Filters attributes={attributes.data} />
      {aside}
      {searching ? (
        <QueryState
          query={query}
          loadingText="Searching…"
          failedText="The search could not be run"
          isEmpty={!data?.items.length}
          empty={<EmptyText title="No files match">Try other words, or fewer filters.</EmptyText>}
        >
          <p className="muted" aria-live="polite">
            {data
              ? `${data.total}${data.total_exact ? '' : '+'} file${data.total === 1 ? '' : 's'} found`
              : ''}
          </p>
          <FoundFiles items={data?.items ?? []} busy={query.isPlaceholderData} />
          <PageNavigation
            data={data}
            noun="files"
            onPage={(p) => setParams(withChanges(params, { page: String(p) }))}
            busy={query.isPlaceholderData}
          />
        </QueryState>
      ) : (
        <div className="card empty-state">
          <p className="muted">Type words to search for, or choose a filter.</p>
        </div>
      )}
    </>
  );
}
