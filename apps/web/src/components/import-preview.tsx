import { type ReactNode, useId } from 'react';
import { plural } from '../lib/format';
import type { ImportErrors } from '../lib/import-errors';
import type { ImportPreview } from '../lib/use-import-check';
import { Button } from './button';
import { useNotify } from './notifications/notification-context';
import { PlainTable } from './plain-table';

/**
 * What a checked workbook holds: how many rows were read from which file, and the problems to
 * fix (in how many rows, when given) before it can be imported.
 */
export function ImportSummary({
  rows,
  fileName,
  problems,
  rowsWithProblems = 0,
}: {
  rows: number;
  fileName: string;
  problems: number;
  rowsWithProblems?: number;
}) {
  return (
    <p aria-live="polite">
      {plural(rows, 'row', 'rows')} read from <strong>{fileName}</strong>
      {problems > 0 ? (
        <>
          {' · '}
          <span className="field__error">
            {plural(problems, 'problem', 'problems')}
            {rowsWithProblems > 0 ? ` in ${plural(rowsWithProblems, 'row', 'rows')}` : ''} to fix
          </span>
          . Fix them in the workbook and choose it again.
        </>
      ) : (
        ' · no problems found.'
      )}
    </p>
  );
}

/** Messages that belong to no row of a workbook (a missing column, an empty file), in red. */
export function ImportProblems({ messages }: { messages: string[] }) {
  return messages.length > 0 ? (
    <ul className="alert alert--error">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  ) : null;
}

export interface ImportColumn<R> {
  label: string;
  cell: (row: R) => ReactNode;
}

/**
 * The rows read from an uploaded workbook before they are imported: the row number, the
 * columns given, and each row's problems (or OK), a row with problems marked.
 */
export function ImportPreviewTable<R extends { row: number }>({
  rows,
  columns,
  problems,
}: {
  rows: R[];
  columns: ImportColumn<R>[];
  /** Problems by row number (`groupImportErrors(…).byRow`). */
  problems: ReadonlyMap<number, string[]>;
}) {
  return (
    <PlainTable caption="Rows of the workbook" columns={['Row', ...columns.map((c) => c.label), 'Problems']}>
      {rows.map((r) => {
        const found = problems.get(r.row);
        return (
          <tr key={r.row} className={found ? 'row--error' : undefined}>
            <td>{r.row}</td>
            {columns.map((c) => (
              <td key={c.label}>{c.cell(r)}</td>
            ))}
            <td>
              {found ? (
                <ul className="field__error">
                  {found.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : (
                <span className="badge badge--success">OK</span>
              )}
            </td>
          </tr>
        );
      })}
    </PlainTable>
  );
}

/** One numbered step of an import page ("2. Choose the workbook"): a card headed by its title. */
export function ImportStep({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** The first step: what the template holds (`children`), and its download. */
export function TemplateStep({
  template,
  children,
}: {
  template: {
    mutate: (value: undefined, options: { onError: (error: Error) => void }) => void;
    isPending: boolean;
  };
  children: ReactNode;
}) {
  const notify = useNotify();
  return (
    <ImportStep title="1. Download the template">
      <p className="muted">{children}</p>
      <Button
        variant="ghost"
        disabled={template.isPending}
        onClick={() =>
          template.mutate(undefined, {
            onError: (e) => notify.notifyFailure('Failed to download the template', e),
          })
        }
      >
        {template.isPending ? 'Downloading…' : 'Download template'}
      </Button>
    </ImportStep>
  );
}

/**
 * The last step: what the checked workbook holds and its problems (`rowsWithProblems`: also
 * in how many rows), `notes`, the preview of its rows in `columns` (or `empty` when it has
 * none), then the import (`children`).
 */
export function CheckStep<R extends { row: number }>({
  preview,
  grouped,
  rowsWithProblems = false,
  notes,
  columns,
  empty,
  children,
}: {
  preview: ImportPreview<R>;
  grouped: ImportErrors;
  rowsWithProblems?: boolean;
  notes?: ReactNode;
  columns: ImportColumn<R>[];
  empty?: ReactNode;
  children: ReactNode;
}) {
  return (
    <ImportStep title="3. Check and import">
      <ImportSummary
        rows={preview.rows.length}
        fileName={preview.file.name}
        problems={preview.errors.length}
        {...(rowsWithProblems
          ? { rowsWithProblems: preview.rows.filter((r) => grouped.byRow.has(r.row)).length }
          : {})}
      />
      <ImportProblems messages={grouped.general} />
      {notes}
      {preview.rows.length > 0 ? (
        <ImportPreviewTable rows={preview.rows} problems={grouped.byRow} columns={columns} />
      ) : (
        empty
      )}
      {children}
    </ImportStep>
  );
}

/**
 * The second step: choosing the workbook (`children`), then "Checking the rows…" while it is
 * read. One who may only read the area (`area`: "Settings") is told why it is not there.
 */
export function FileStep({
  title,
  canWrite,
  area,
  checking,
  children,
}: {
  title: string;
  canWrite: boolean;
  area: string;
  checking: boolean;
  children: ReactNode;
}) {
  if (!canWrite)
    return (
      <p className="alert alert--info">You have read-only access to {area}: importing needs write access.</p>
    );
  return (
    <ImportStep title={title}>
      {children}
      {checking ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Checking the rows…
        </p>
      ) : null}
    </ImportStep>
  );
}
