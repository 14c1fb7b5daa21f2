import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { renderWithNotifications } from '../../testing/notifications';
import { ALERT_TIMEOUT_MS, AlertBanner } from './alert-banner';
import { NotificationArea } from './notification-area';
import { TOAST_TIMEOUT_MS } from './notification-store';

const setup = () => renderWithNotifications(<NotificationArea />).store;

const dismiss = () => act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());

describe('the notification area', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows one message at a time; in one batch: success, then warning, then error, then info', () => {
    const store = setup();
    act(() => {
      store.info('Info title');
      store.error('Error title', 'Error detail');
      store.warning('Warning title');
      store.success('Saved!');
    });

    expect(screen.getByRole('status')).toHaveTextContent('Saved!');
    expect(screen.queryByText('Warning title')).not.toBeInTheDocument();
    dismiss();
    expect(screen.getByRole('alert')).toHaveTextContent('Warning title');
    dismiss();
    expect(screen.getByRole('alert')).toHaveTextContent('Error titleError detail');
    dismiss();
    expect(screen.getByRole('status')).toHaveTextContent('Info title');
    dismiss();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a failure raised after a success at once, and drops the success', async () => {
    const store = setup();
    act(() => store.success('Sign-in settings saved'));
    await act(async () => {});
    act(() => store.error('Failed to save sign-in settings'));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to save sign-in settings');
    expect(screen.queryByText('Sign-in settings saved')).not.toBeInTheDocument();
    dismiss();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('replaces the message on screen with a newer one of any kind', async () => {
    const store = setup();
    act(() => store.error('Failed to delete file'));
    await act(async () => {});
    act(() => store.info('Later'));
    expect(screen.getByRole('status')).toHaveTextContent('Later');
    expect(screen.queryByText('Failed to delete file')).not.toBeInTheDocument();
    dismiss();
    expect(screen.queryByText('Failed to delete file')).not.toBeInTheDocument();
  });

  it('keeps only the newest message of a kind within one batch', () => {
    const store = setup();
    act(() => {
      store.error('Failed to delete file');
      store.error('Failed to edit file');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to edit file');
    dismiss();
    expect(screen.queryByText('Failed to delete file')).not.toBeInTheDocument();
  });

  it('clears a toast after 10 seconds', () => {
    const store = setup();
    act(() => store.success('Uploaded'));
    act(() => vi.advanceTimersByTime(TOAST_TIMEOUT_MS - 1));
    expect(screen.getByText('Uploaded')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Uploaded')).not.toBeInTheDocument();
    expect(TOAST_TIMEOUT_MS).toBe(10_000);
  });

  it('gives a replacing message its own 10 seconds', async () => {
    const store = setup();
    act(() => store.success('First'));
    await act(async () => {});
    act(() => vi.advanceTimersByTime(4_000));
    act(() => store.info('Later'));
    act(() => vi.advanceTimersByTime(6_000));
    expect(screen.getByRole('status')).toHaveTextContent('Later');
    act(() => vi.advanceTimersByTime(4_000));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('forgets every message when cleared', () => {
    const store = setup();
    act(() => store.success('2FA verified successfully!'));
    act(() => store.clear());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('titles a failure after the action and explains it with the error-message rule', () => {
    const store = setup();
    act(() =>
      store.notifyFailure('Failed to create user!', new ApiError(409, { message: 'Username is taken' })),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to create user!Username is taken');
    act(() => store.notifyFailure('Failed to load file data', undefined));
    expect(screen.getByRole('alert')).toHaveTextContent('An error occurred, please try again later');
  });

  it('says nothing about a cancelled request', () => {
    const store = setup();
    act(() => store.notifyFailure('Failed to search', new DOMException('Aborted', 'AbortError')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('AlertBanner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hides after 5 seconds', () => {
    render(<AlertBanner>Could not save</AlertBanner>);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
    act(() => vi.advanceTimersByTime(ALERT_TIMEOUT_MS - 1));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(ALERT_TIMEOUT_MS).toBe(5_000);
  });
});
