import { contract } from '@quire/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { DateRangePicker, type DayRange } from '../../../components/date-range-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type CategoryFilesQuery, useCategoryFiles } from '../api/file-queries';
import { FileTable } from '../components/file-table';

/**
 * A category's files: a table with paging, a search that replaces (and cancels) the request
 * before it, a date range, a metadata filter, and the export of what is shown.
 */
export function CategoryFilesPage() {
  const id = Number(useParams().id);
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [range, setRange] = useState<DayRange | null>(null);
  const [fieldId, setFieldId] = useState<number | undefined>();
  const [fieldName, setFieldName] = useState('');
  const query: CategoryFilesQuery = {
    page,
    search: search || undefined,
    startDate: range?.from,
    endDate: range?.to,
    fieldId,
    fieldName: fieldId && fieldName ? fieldName : undefined,
  };
  const files = useCategoryFiles(id, query);
  useFailureToast(files.error, files.errorUpdatedAt, 'Failed to load file data');
  const data = files.data;

  async function exportList() {
    try {
      const { page: _p, quantity: _q, ...filters } = query;
      const { data: blob } = await callApi(contract.category.fileIncategoryExport, {
        params: { id },
        query: filters,
      });
      saveBlob(blob, `Files in category ${id}.xlsx`);
    } catch (error) {
      notify.notifyFailure('Failed to export files', error);
    }
  }

  return (
    <>
      <PageHeader title={data?.folder.name ?? 'Category files'}>
        The indexed files of this category.
      </PageHeader>
      <div className="section-header">
        <Link className="button button--primary" to={`/files/upload/${id}`}>
          Upload files
        </Link>
        <button type="button" className="button button--ghost" onClick={exportList}>
          Export
        </button>
      </div>
      <div className="filters">
        <label className="field">
          <span className="field__label">Search</span>
          <input
            className="input"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <DateRangePicker
          label="Filed between"
          value={range}
          onChange={(r) => {
            setRange(r);
            setPage(1);
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
      <FileTable
        label="Files"
        rows={data?.items ?? []}
        busy={files.isFetching}
        extra={(data?.columns ?? []).map((c, i) => ({
          id: `field-${c.field_id}`,
          label: c.name,
          cell: (row) => (row as (typeof data & object)['items'][number]).values[i]?.display ?? '',
        }))}
        page={data ? { ...data, onPage: setPage } : undefined}
        emptyText="No files match"
      />
    </>
  );
}
