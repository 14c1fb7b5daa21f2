import { describe, expect, it } from 'vitest';
import { conditionWords } from '../src/workflow-model.js';

describe('conditionWords', () => {
  it.each([
    ['gt', '1000', 'Amount is greater than 1000'],
    ['in_list', ['Paid', 'Open'], 'Amount is one of Paid, Open'],
    ['empty', null, 'Amount is empty'],
    ['ne', '', 'Amount is not '],
  ] as const)('says %s with %j as "%s"', (operator, value, words) => {
    expect(conditionWords('Amount', operator, value)).toBe(words);
  });
});
