import { useState } from 'react';
import { useNotify } from '../components/notifications/notification-context';
import { ApiError } from './api-error';
import { errorMessage } from './error-message';
import { groupImportErrors } from './import-errors';

/** The toast of a workbook that could not be read. */
export const READ_FAILED = 'Failed to read the spreadsheet';

type Problem = { path: string; message: string };
type Vars = { file: File; dryRun: boolean };

/** An import call as `useMutation` gives it: with `dryRun` it checks the file and changes nothing. */
export interface ImportCall<V extends Vars, R> {
  mutate: (
    vars: V,
    options: { onSuccess: (data: R) => void; onError: (error: Error) => void; onSettled?: () => void },
  ) => void;
  isPending: boolean;
}

/** A checked workbook: the file, its rows and their problems. */
export interface ImportPreview<Row> {
  file: File;
  rows: Row[];
  errors: Problem[];
}

/**
 * A spreadsheet import in two calls, as every import page makes it. `check(file, vars)` sends
 * the file as a dry run (`checking` meanwhile) and keeps its rows and problems as `preview`
 * (grouped by row in `grouped`, their columns named by `labels`), or says why it could not be
 * read (`fileError` and a toast). `run(vars, …)` imports the previewed file; a refusal that
 * names rows (taken meanwhile: all or nothing) puts them in the preview.
 */
export function useImportCheck<V extends Vars, R extends { rows: unknown[]; errors: Problem[] }>(
  call: ImportCall<V, R>,
  { labels, onChecked }: { labels: Record<string, string>; onChecked?: () => void },
) {
  const notify = useNotify();
  const [preview, setPreview] = useState<ImportPreview<R['rows'][number]> | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [checking, setChecking] = useState(false);

  /** Forgets the checked file and why the last one failed. */
  const clear = () => {
    setPreview(null);
    setFileError(undefined);
  };

  const check = (file: File, vars: Omit<V, keyof Vars>) => {
    clear();
    setChecking(true);
    call.mutate({ ...vars, file, dryRun: true } as V, {
      onSuccess: (data) => {
        setPreview({ file, rows: data.rows, errors: data.errors });
        onChecked?.();
      },
      onError: (e) => {
        setFileError(errorMessage(e));
        notify.notifyFailure(READ_FAILED, e);
      },
      onSettled: () => setChecking(false),
    });
  };

  const run = (
    vars: Omit<V, keyof Vars>,
    { failure, onDone }: { failure: string; onDone: (data: R) => void },
  ) => {
    if (!preview || call.isPending) return;
    call.mutate({ ...vars, file: preview.file, dryRun: false } as V, {
      onSuccess: onDone,
      onError: (e) => {
        if (e instanceof ApiError && e.errors.length > 0) setPreview({ ...preview, errors: e.errors });
        notify.notifyFailure(failure, e);
      },
    });
  };

  return {
    preview,
    grouped: preview ? groupImportErrors(preview.errors, labels) : null,
    /** Nothing to import: no file checked, no rows, or problems to fix. */
    blocked: !preview || preview.rows.length === 0 || preview.errors.length > 0,
    fileError,
    setFileError,
    checking,
    importing: call.isPending && !checking,
    clear,
    check,
    run,
  };
}
