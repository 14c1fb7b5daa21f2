import { describe, expect, it } from 'vitest';
import { ZScheduleBackupBody } from '../src/backup.js';
import { CRON_FIELDS_MESSAGE, cronProblem } from '../src/cron.js';
import { ZSaveTriggerBody } from '../src/workflow-bodies.js';

// Cron expressions people type are refused with a sentence naming the field, never the
// scheduler's parser text (issue 22 point 11).

describe('cronProblem', () => {
  it.each([
    ['0 9 * * 1', null],
    ['*/15 8-18 * JAN-MAR MON-FRI', null],
    ['0 0 1,15 * ?', null],
    ['0 0 L * *', null],
    ['0 9 * * 7', null],
    ['', null],
    ['0 9 * *', CRON_FIELDS_MESSAGE],
    ['0 9 * * 1 2', CRON_FIELDS_MESSAGE],
    ['60 9 * * 1', 'Minute must be 0-59'],
    ['0 24 * * *', 'Hour must be 0-23'],
    ['0 9 0 * *', 'Day of the month must be 1-31'],
    ['0 9 * 13 *', 'Month must be 1-12 or JAN-DEC'],
    ['0 9 * * FOO', 'Weekday must be 0-7 or SUN-SAT'],
    ['0 9 * * 8', 'Weekday must be 0-7 or SUN-SAT'],
    ['*/0 9 * * *', 'Minute: a step must be 1 or more'],
    ['a 9 * * *', 'Minute: use a number, *, a range (1-5), a list (1,3) or a step (*/15)'],
    ['1-2-3 9 * * *', 'Minute: use a number, *, a range (1-5), a list (1,3) or a step (*/15)'],
    ['5-1 9 * * *', 'Minute: a range goes from low to high, such as 1-5'],
    ['0 9 * * FRI-MON', 'Weekday: a range goes from low to high, such as 1-5'],
  ])('%j: %j', (expression, problem) => {
    expect(cronProblem(expression)).toBe(problem);
  });

  it('takes a sixth field, the second, first where seconds are allowed', () => {
    expect(cronProblem('30 0 2 * * *', { seconds: true })).toBeNull();
    expect(cronProblem('61 0 2 * * *', { seconds: true })).toBe('Second must be 0-59');
    expect(cronProblem('0 2 * *', { seconds: true })).toBe(
      'Give five fields (minute hour day month weekday), or six with the second first',
    );
  });
});

describe('the bodies that carry one', () => {
  it("a trigger's schedule and the backup schedule answer with the sentence at the cron field", () => {
    const trigger = ZSaveTriggerBody.safeParse({ workflow_step_id: 1, kind: 'on_date', cron: '0 25 * * *' });
    expect(trigger.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['cron', 'Hour must be 0-23'],
    ]);
    const backup = ZScheduleBackupBody.safeParse({
      enabled: true,
      frequency: 'custom',
      cron: '0 2 * *',
      keep_last: 7,
    });
    expect(backup.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['cron', 'Give five fields (minute hour day month weekday), or six with the second first'],
    ]);
  });
});
