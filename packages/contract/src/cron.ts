import { zLine } from './common.js';

// Cron expressions people type (the backup schedule, a workflow step's on-date trigger),
// checked field by field with a sentence that says what to change, before they reach the
// scheduler's parser (whose own words are not for people).

interface CronField {
  name: string;
  min: number;
  max: number;
  /** Names accepted for values (JAN…DEC, SUN…SAT), in order from `min`. */
  names?: readonly string[];
  /** Extra tokens the parser accepts in this field (?, L, #). */
  extra?: RegExp;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const SECOND: CronField = { name: 'Second', min: 0, max: 59 };
const FIVE: readonly CronField[] = [
  { name: 'Minute', min: 0, max: 59 },
  { name: 'Hour', min: 0, max: 23 },
  { name: 'Day of the month', min: 1, max: 31, extra: /^(\?|L)$/i },
  { name: 'Month', min: 1, max: 12, names: MONTHS },
  { name: 'Weekday', min: 0, max: 7, names: DAYS, extra: /^(\?|[0-7]L|[0-7]#[1-5])$/i },
];

export const CRON_FIELDS_MESSAGE = 'Give five fields: minute hour day month weekday';
const CRON_SIX_MESSAGE = 'Give five fields (minute hour day month weekday), or six with the second first';

function rangeWords(f: CronField): string {
  const names = f.names ? ` or ${f.names[0]}-${f.names[f.names.length - 1]}` : '';
  return `${f.name} must be ${f.min}-${f.max}${names}`;
}

/** A value of a field: a number in range or one of its names; null when neither. */
function value(f: CronField, token: string): number | null {
  if (/^\d+$/.test(token)) return Number(token);
  const named = f.names?.indexOf(token.toUpperCase()) ?? -1;
  return named >= 0 ? named + f.min : null;
}

/** What is wrong with one field, in a sentence; null when nothing is. */
function fieldProblem(f: CronField, text: string): string | null {
  const shape = `${f.name}: use a number, *, a range (1-5), a list (1,3) or a step (*/15)`;
  for (const part of text.split(',')) {
    if (f.extra?.test(part)) continue;
    const [base = '', step, ...more] = part.split('/');
    if (more.length) return shape;
    if (step !== undefined && !/^\d+$/.test(step)) return shape;
    if (step !== undefined && Number(step) < 1) return `${f.name}: a step must be 1 or more`;
    if (base === '*') continue;
    const [from = '', to, ...rest] = base.split('-');
    if (rest.length) return shape;
    const ends: number[] = [];
    for (const token of to === undefined ? [from] : [from, to]) {
      const n = value(f, token);
      if (n === null) return /^\d+$/.test(token) || f.names ? rangeWords(f) : shape;
      if (n < f.min || n > f.max) return rangeWords(f);
      ends.push(n);
    }
    if (ends.length === 2 && (ends[0] as number) > (ends[1] as number))
      return `${f.name}: a range goes from low to high, such as 1-5`;
  }
  return null;
}

/**
 * What is wrong with a cron expression, as a sentence ("Minute must be 0-59"); null when it
 * is fine or empty (an empty one is for the caller's own "Enter …" rule).
 */
export function cronProblem(expression: string, opts: { seconds?: boolean } = {}): string | null {
  const parts = expression.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  const withSeconds = opts.seconds && parts.length === 6;
  if (parts.length !== 5 && !withSeconds) return opts.seconds ? CRON_SIX_MESSAGE : CRON_FIELDS_MESSAGE;
  const fields = withSeconds ? [SECOND, ...FIVE] : FIVE;
  for (const [i, f] of fields.entries()) {
    const problem = fieldProblem(f, parts[i] as string);
    if (problem) return problem;
  }
  return null;
}

/** A cron expression field of a body: trimmed, at most 100 characters, checked by `cronProblem`. */
export const zCron = (opts: { seconds?: boolean } = {}) =>
  zLine()
    .trim()
    .max(100)
    .superRefine((v, ctx) => {
      const problem = cronProblem(v, opts);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
