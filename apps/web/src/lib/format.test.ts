import { describe, expect, it } from 'vitest';
import { formatDateTime, relativeTime } from './format';

describe('relativeTime', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it.each([
    ['2025-06-01T11:59:50Z', 'just now'],
    ['2025-06-01T11:55:00Z', '5 minutes ago'],
    ['2025-06-01T09:00:00Z', '3 hours ago'],
    ['2025-05-31T12:00:00Z', 'yesterday'],
    ['2025-06-01T14:00:00Z', 'in 2 hours'],
  ])('%s reads as "%s"', (iso, expected) => {
    expect(relativeTime(iso, now)).toBe(expected);
  });

  it('is empty for no date or an unreadable one', () => {
    expect(relativeTime(null, now)).toBe('');
    expect(relativeTime('not a date', now)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
});
