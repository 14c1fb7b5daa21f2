import { createError } from '../../lib/errors.js';

// The intake area's errors.

export const sourceNotFound = createError({
  code: 'intake.source_not_found',
  statusCode: 404,
  message: 'Intake source not found',
});

export const ruleNotFound = createError({
  code: 'intake.rule_not_found',
  statusCode: 404,
  message: 'Intake rule not found',
});

export const arrivalNotFound = createError({
  code: 'intake.arrival_not_found',
  statusCode: 404,
  message: 'Arrival not found',
});

export const notFailed = createError({
  code: 'intake.arrival_not_failed',
  statusCode: 409,
  message: 'Only a failed arrival can be taken again; this one was taken',
});

export const cannotRetry = createError({
  code: 'intake.cannot_retry',
  statusCode: 409,
  message: (why: string) => `This arrival cannot be taken again: ${why}`,
});

export const tooManyRules = createError({
  code: 'intake.too_many_rules',
  statusCode: 409,
  message: (max: number) => `There are already ${max} rules, the most there may be. Remove one first.`,
});
