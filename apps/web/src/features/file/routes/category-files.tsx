import { calls } from '@quire/contract/calls';
import { type DragEvent, useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { BulkFileActions } from '../../../components/bulk-file-actions';
import { DateRangePicker, type DayRange } from '../../../components/date-range-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { UploadList } from '../../../components/upload-list';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type CategoryFilesQuery, useCategoryFiles } from '../api/file-queries';
import { useUploadCategories } from '../api/get-upload-categories';
import { FileTable } from '../components/file-table';
import { useCategoryUploads } from '../lib/use-category-uploads';

const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');

/**
 * A category's files: a table with paging, a search that replaces (and cancels) the request
 * before it, a date range, a metadata filter, and the export of what is shown. Where the
 * person may upload, Upload (or files dropped anywhere on the page) uploads into the category
 * here, each file with its progress.
 */
export function CategoryFilesPage() {
  const id = Number(useParams().id);
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [range, setRange] = useState<DayRange | null>(null);
  const [fieldId, setFieldId] = useState<number | undefined>();
  const [fieldName, setFieldName] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const filters = {
    search: search || undefined,
    startDate: range?.from,
    endDate: range?.to,
    fieldId,
    fieldName: fieldId && fieldName ? fieldName : undefined,
  };
  // Next is asked by the cursor of the page before (keyset paging, an extension): read from
  // the category's index at once, however deep. Any other page, or other filters, by number.
  const [after, setAfter] = useState<{ page: number; filters: string; cursor: string } | null>(null);
  const filterKey = JSON.stringify(filters);
  const cursor = after?.page === page && after.filters === filterKey ? after.cursor : undefined;
  const query: CategoryFilesQuery = { page, ...filters, ...(cursor ? { cursor } : {}) };
  const files = useCategoryFiles(id, query);
  useFailureToast(files.error, files.errorUpdatedAt, 'Failed to load file data');
  const data = files.data;
  const goTo = (n: number) => {
    const next = !files.isPlaceholderData && data?.page === page ? data.next_cursor : null;
    setAfter(n === page + 1 && next ? { page: n, filters: filterKey, cursor: next } : null);
    setPage(n);
  };
  const canUpload = useUploadCategories().data?.some((c) => c.id === id) ?? false;
  const uploads = useCategoryUploads(id);
  const [dragging, setDragging] = useState(false);
  const filtered = Boolean(query.search || query.startDate || query.endDate || query.fieldName);
  const name = data?.folder.name ?? 'this category';
  const uploaded = uploads.items.filter((i) => i.status === 'done').length;
  const uploadButton = (
    <FileTrigger allowsMultiple onSelect={(list) => list && uploads.add([...list])}>
      <Button className="button button--primary">Upload</Button>
    </FileTrigger>
  );

  async function exportList() {
    try {
      const { data: blob } = await callApi(calls.category.fileIncategoryExport, {
        params: { id },
        query: filters,
      });
      saveBlob(blob, `Files in category ${id}.xlsx`);
    } catch (error) {
      notify.notifyFailure('Failed to export files', error);
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a pointer shortcut; the Upload button does the same from the keyboard
    <div
      className={`category-page${dragging ? ' is-drop-target' : ''}`}
      onDragOver={(e) => {
        if (!canUpload || !hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        if (!canUpload || !hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        uploads.add([...e.dataTransfer.files]);
      }}
    >
      {dragging ? (
        <p className="category-page__drop-hint" aria-hidden="true">
          Drop to upload into {name}
        </p>
      ) : null}
      <PageHeader title={data?.folder.name ?? 'Category files'}>
        The indexed files of this category.
        {canUpload ? ' Drop files anywhere on this page to upload them here.' : ''}
      </PageHeader>
      <div className="section-header">
        {canUpload ? uploadButton : null}
        <button type="button" className="button button--ghost" onClick={exportList}>
          Export
        </button>
      </div>
      <UploadList items={uploads.items} onCancel={uploads.cancel} onDismiss={uploads.dismiss} />
      {uploaded > 0 && !uploads.busy ? (
        <p className="alert alert--info" role="status">
          {uploaded === 1 ? '1 file uploaded' : `${uploaded} files uploaded`}: give their values to file them.{' '}
          <Link to="/unindexed-files" state={{ categoryId: id }}>
            Index the uploaded files
          </Link>
        </p>
      ) : null}
      <div className="filters">
        <label className="field">
          <span className="field__label">Search</span>
          <input
            className="input"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              goTo(1);
            }}
          />
        </label>
        <DateRangePicker
          label="Filed between"
          value={range}
          onChange={(r) => {
            setRange(r);
            goTo(1);
          }}
        />
        {data?.columns.length ? (
          <>
            <label className="field">
              <span className="field__label">Field</span>
              <select
                className="input"
                value={fieldId ?? ''}
                onChange={(e) => setFieldId(e.target.value ? Number(e.target.value) : undefined)}
              >
                <option value="">Any field</option>
                {data.columns.map((c) => (
                  <option key={c.field_id} value={c.field_id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="field__label">Value</span>
              <input className="input" value={fieldName} onChange={(e) => setFieldName(e.target.value)} />
            </label>
          </>
        ) : null}
      </div>
      {data && data.total === 0 && !filtered ? (
        <div className="card empty-state">
          <h2>No files in this category yet</h2>
          {canUpload ? (
            <>
              <p className="muted">Upload the first ones, or drop them on this page.</p>
              {uploadButton}
            </>
          ) : (
            <p className="muted">Files appear here once they are uploaded and indexed.</p>
          )}
        </div>
      ) : (
        <FileTable
          label="Files"
          rows={data?.items ?? []}
          busy={files.isFetching}
          extra={(data?.columns ?? []).map((c, i) => ({
            id: `field-${c.field_id}`,
            label: c.name,
            cell: (row) => (row as (typeof data & object)['items'][number]).values[i]?.display ?? '',
          }))}
          page={data ? { ...data, onPage: goTo } : undefined}
          emptyText="No files match"
          selected={selected}
          onSelectionChange={setSelected}
          bulkActions={(ids) => <BulkFileActions ids={ids} onDone={() => setSelected(new Set())} />}
        />
      )}
    </div>
  );
}
