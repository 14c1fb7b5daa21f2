import { z } from 'zod';

// One wording for validation problems on both sides, in words a person can act on: zod's
// own messages ("Too big: expected string to have <=100 characters") never reach a screen.
// A schema's own message (`.min(1, 'Enter your password')`) still wins over these.

type Issue = z.core.$ZodRawIssue;

const plural = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

const TYPE_WORDS: Record<string, string> = {
  string: 'Enter text',
  number: 'Enter a number',
  int: 'Enter a whole number',
  boolean: 'Choose yes or no',
  array: 'Give a list',
  object: 'Give the fields of this item',
  date: 'Enter a date',
};

/** The message for a validation problem; undefined leaves zod's (never reached in practice). */
export function friendlyMessage(issue: Issue): string | undefined {
  if (issue.input === undefined) return 'Required';
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_WORDS[issue.expected] ?? 'This value is not valid';
    case 'too_big': {
      const max = issue.maximum as number;
      if (issue.origin === 'string') return `Use at most ${plural(max, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Give at most ${plural(max, 'item')}`;
      if (issue.origin === 'number' || issue.origin === 'bigint')
        return issue.inclusive === false
          ? `Enter a number below ${max}`
          : `Enter a number no greater than ${max}`;
      return 'This is too large';
    }
    case 'too_small': {
      const min = issue.minimum as number;
      if (issue.origin === 'string')
        return Number(min) <= 1 ? 'Required' : `Use at least ${plural(min, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return Number(min) <= 1 ? 'Give at least one item' : `Give at least ${plural(min, 'item')}`;
      if (issue.origin === 'number' || issue.origin === 'bigint')
        return issue.inclusive === false
          ? `Enter a number above ${min}`
          : `Enter a number of at least ${min}`;
      return 'This is too small';
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter a valid e-mail address';
      if (issue.format === 'url') return 'Enter a valid web address';
      return 'This is not in the expected format';
    case 'invalid_value':
      return issue.values.length === 1
        ? `Use ${String(issue.values[0])}`
        : `Choose one of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `Remove the unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `Enter a multiple of ${String(issue.divisor)}`;
    default:
      return 'This value is not valid';
  }
}

z.config({ customError: friendlyMessage });
