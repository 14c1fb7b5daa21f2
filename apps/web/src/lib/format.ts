// Dates and times as people read them, in the browser's locale.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const shortThisYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "12 Mar 2025, 14:05"; an empty string for no date. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateTime.format(date) : '';
}

/** "12 Mar 2025". */
export function formatDate(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateOnly.format(date) : '';
}

/** "12 Mar" this year, "12 Mar 2024" before: short enough for a table cell. */
export function formatShortDate(iso: string | null | undefined, now: Date = new Date()): string {
  const date = parse(iso);
  if (!date) return '';
  return date.getFullYear() === now.getFullYear() ? shortThisYear.format(date) : dateOnly.format(date);
}

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "just now", "5 minutes ago", "in 2 hours", "yesterday". */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  const date = parse(iso);
  if (!date) return '';
  let value = (date.getTime() - now) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return dateTime.format(date);
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** "532 bytes", "1.4 MB": sizes as people read them (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** "1 row", "3 rows": a count with the word that fits it. */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
