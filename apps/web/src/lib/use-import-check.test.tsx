import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createNotificationStore } from '../components/notifications/notification-store';
import { notificationsWrapper } from '../testing/notifications';
import { ApiError } from './api-error';
import { READ_FAILED, useImportCheck } from './use-import-check';

type Vars = { file: File; dryRun: boolean; list: number };
type Result = { rows: Array<{ row: number; key: string }>; errors: Array<{ path: string; message: string }> };
type Options = { onSuccess: (data: Result) => void; onError: (error: Error) => void; onSettled?: () => void };

const workbook = new File(['x'], 'colours.xlsx');

/** The hook over a fake call that answers each request with the next of `answers`. */
function renderImport(...answers: Array<Result | Error>) {
  const store = createNotificationStore();
  const call = {
    isPending: false,
    mutate: vi.fn((_vars: Vars, o: Options) => {
      const answer = answers.shift();
      if (answer instanceof Error) o.onError(answer);
      else if (answer) o.onSuccess(answer);
      o.onSettled?.();
    }),
  };
  const hook = renderHook(() => useImportCheck(call, { labels: { key: 'Key' } }), {
    wrapper: notificationsWrapper(store),
  });
  return { store, call, hook };
}

describe('useImportCheck', () => {
  it('checks the file as a dry run, then imports the same file with the same variables', () => {
    const done = vi.fn();
    const { call, hook } = renderImport(
      { rows: [{ row: 2, key: 'red' }], errors: [] },
      { rows: [], errors: [] },
    );
    act(() => hook.result.current.check(workbook, { list: 7 }));
    expect(call.mutate).toHaveBeenLastCalledWith(
      { list: 7, file: workbook, dryRun: true },
      expect.anything(),
    );
    expect(hook.result.current.preview).toEqual({
      file: workbook,
      rows: [{ row: 2, key: 'red' }],
      errors: [],
    });
    expect(hook.result.current.blocked).toBe(false);
    expect(hook.result.current.checking).toBe(false);
    act(() => hook.result.current.run({ list: 7 }, { failure: 'Failed to import!', onDone: done }));
    expect(call.mutate).toHaveBeenLastCalledWith(
      { list: 7, file: workbook, dryRun: false },
      expect.anything(),
    );
    expect(done).toHaveBeenCalledWith({ rows: [], errors: [] });
  });

  it('groups the problems by row with the columns named, and will not import while there are any', () => {
    const { call, hook } = renderImport({
      rows: [{ row: 2, key: '' }],
      errors: [
        { path: 'row 2.key', message: 'Enter a key' },
        { path: 'file', message: 'No header row' },
      ],
    });
    act(() => hook.result.current.check(workbook, { list: 7 }));
    expect(hook.result.current.grouped?.byRow.get(2)).toEqual(['Key: Enter a key']);
    expect(hook.result.current.grouped?.general).toEqual(['No header row']);
    expect(hook.result.current.blocked).toBe(true);
    act(() => hook.result.current.run({ list: 7 }, { failure: 'Failed to import!', onDone: vi.fn() }));
    expect(call.mutate).toHaveBeenCalledTimes(2);
  });

  it('says why a file could not be read, beside the file and in a toast', () => {
    const { store, hook } = renderImport(
      new ApiError(400, { message: 'The file is not a workbook', errors: [] }),
    );
    act(() => hook.result.current.check(workbook, { list: 7 }));
    expect(hook.result.current.preview).toBeNull();
    expect(hook.result.current.fileError).toBe('The file is not a workbook');
    expect(store.current()).toMatchObject({ kind: 'error', title: READ_FAILED });
  });

  it('puts the rows a refused import names into the preview and toasts the failure', () => {
    const refusal = new ApiError(400, {
      message: 'Invalid input',
      errors: [{ path: 'row 2.key', message: 'Taken meanwhile' }],
    });
    const done = vi.fn();
    const { store, hook } = renderImport({ rows: [{ row: 2, key: 'red' }], errors: [] }, refusal);
    act(() => hook.result.current.check(workbook, { list: 7 }));
    act(() => hook.result.current.run({ list: 7 }, { failure: 'Failed to import!', onDone: done }));
    expect(hook.result.current.grouped?.byRow.get(2)).toEqual(['Key: Taken meanwhile']);
    expect(hook.result.current.blocked).toBe(true);
    expect(store.current()).toMatchObject({ kind: 'error', title: 'Failed to import!' });
    expect(done).not.toHaveBeenCalled();
  });

  it('imports nothing before a file is checked', () => {
    const { call, hook } = renderImport();
    act(() => hook.result.current.run({ list: 7 }, { failure: 'Failed to import!', onDone: vi.fn() }));
    expect(call.mutate).not.toHaveBeenCalled();
  });
});
