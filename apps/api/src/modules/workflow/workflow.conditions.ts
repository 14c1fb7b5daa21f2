import { conditionWords, type TConditionOperator, type TWorkflowValue } from '@quire/contract';
import { display, type FieldMeta } from './workflow.values.js';

// PRE and POST conditions: tests on a file's metadata or the run's workflow metadata, in
// position order, each joined to the one before it by `and` or `or`. `and` binds first:
// a AND b OR c AND d holds when (a and b) or (c and d). No conditions: holds.

export interface Condition {
  id: number;
  field: FieldMeta;
  onWorkflowField: boolean;
  operator: TConditionOperator;
  /** Stored text; for in_list a JSON array of texts. */
  value: string | null;
  join: 'and' | 'or';
  position: number;
}

export interface ConditionResult {
  condition: Condition;
  expected: string | string[] | null;
  actual: TWorkflowValue;
  actualText: string | null;
  holds: boolean;
}

/** The value of a condition as the calls show it. */
export function expectedOf(c: {
  operator: TConditionOperator;
  value: string | null;
}): string | string[] | null {
  if (c.value === null) return null;
  if (c.operator !== 'in_list') return c.value;
  try {
    const list = JSON.parse(c.value);
    return Array.isArray(list) ? list.map(String) : [c.value];
  } catch {
    return [c.value];
  }
}

/** Stored text for a condition's value (the wire's one value or list). */
export const conditionValueText = (value: string | string[] | null | undefined): string | null =>
  value === null || value === undefined ? null : Array.isArray(value) ? JSON.stringify(value) : value;

const isEmpty = (v: TWorkflowValue) => v === null || (typeof v === 'string' && v.trim() === '');

/** -1, 0, 1, or null when the two cannot be compared. */
function compare(field: FieldMeta, actual: TWorkflowValue, expected: string): number | null {
  if (actual === null) return null;
  switch (field.type) {
    case 'number':
    case 'user': {
      const e = Number(expected);
      if (!Number.isFinite(e)) return null;
      return Math.sign(Number(actual) - e);
    }
    case 'select': {
      const option = field.options.find(
        (o) => String(o.key) === expected.trim() || o.label.toLowerCase() === expected.trim().toLowerCase(),
      );
      if (!option) return null;
      return Math.sign(Number(actual) - option.key);
    }
    case 'boolean': {
      const e = ['true', 'yes', '1'].includes(expected.trim().toLowerCase());
      return actual === e ? 0 : actual ? 1 : -1;
    }
    case 'date': {
      const a = String(actual);
      const e = expected.trim();
      return a === e ? 0 : a < e ? -1 : 1;
    }
    case 'text': {
      const a = String(actual).trim().toLowerCase();
      const e = expected.trim().toLowerCase();
      const n = a.localeCompare(e);
      return n === 0 ? 0 : n < 0 ? -1 : 1;
    }
  }
}

export function holds(c: Condition, actual: TWorkflowValue): boolean {
  const expected = expectedOf(c);
  switch (c.operator) {
    case 'empty':
      return isEmpty(actual);
    case 'not_empty':
      return !isEmpty(actual);
    case 'eq':
      return typeof expected === 'string' && compare(c.field, actual, expected) === 0;
    case 'ne':
      return typeof expected === 'string' && compare(c.field, actual, expected) !== 0;
    case 'gt':
      return typeof expected === 'string' && compare(c.field, actual, expected) === 1;
    case 'lt':
      return typeof expected === 'string' && compare(c.field, actual, expected) === -1;
    case 'contains': {
      if (isEmpty(actual) || typeof expected !== 'string') return false;
      const text = c.field.type === 'select' ? display(c.field, actual, () => undefined) : String(actual);
      return text.toLowerCase().includes(expected.trim().toLowerCase());
    }
    case 'in_list': {
      const list = Array.isArray(expected) ? expected : expected === null ? [] : [expected];
      return list.some((e) => compare(c.field, actual, e) === 0);
    }
  }
}

/** Evaluates conditions in position order, `and` before `or`. */
export function evaluate(
  conditions: Condition[],
  values: { file: Map<number, TWorkflowValue>; run: Map<number, TWorkflowValue> },
  userName: (id: number) => string | undefined = () => undefined,
): { holds: boolean; results: ConditionResult[] } {
  const ordered = [...conditions].sort((a, b) => a.position - b.position || a.id - b.id);
  const results = ordered.map((condition) => {
    const actual = (condition.onWorkflowField ? values.run : values.file).get(condition.field.id) ?? null;
    return {
      condition,
      expected: expectedOf(condition),
      actual,
      actualText: isEmpty(actual) ? null : display(condition.field, actual, userName),
      holds: holds(condition, actual),
    };
  });
  const groups: boolean[][] = [];
  results.forEach((r, i) => {
    if (i === 0 || r.condition.join === 'or') groups.push([]);
    groups[groups.length - 1]?.push(r.holds);
  });
  return { holds: groups.length === 0 || groups.some((g) => g.every(Boolean)), results };
}

/** "Amount is greater than 1000 (it is 20)" for the conditions that fail. */
export function describeFailures(results: ConditionResult[]): string {
  return results
    .filter((r) => !r.holds)
    .map(
      (r) =>
        `${conditionWords(r.condition.field.name, r.condition.operator, r.expected)} (it is ${r.actualText === null ? 'empty' : r.actualText})`,
    )
    .join('; ');
}
