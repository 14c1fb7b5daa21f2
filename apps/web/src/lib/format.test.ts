import { describe, expect, it } from 'vitest';
import { formatDateTime, formatShortDate, relativeTime } from './format';

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

describe('formatShortDate', () => {
  it('leaves out the year of a date this year, and keeps it for older dates', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(formatShortDate('2026-03-12T12:00:00Z', now)).not.toContain('2026');
    expect(formatShortDate('2026-03-12T12:00:00Z', now)).toContain('12');
    expect(formatShortDate('2024-03-12T12:00:00Z', now)).toContain('2024');
    expect(formatShortDate(undefined, now)).toBe('');
  });
});
