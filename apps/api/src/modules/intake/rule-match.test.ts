import { describe, expect, it } from 'vitest';
import {
  type ArrivalFacts,
  firstMatch,
  globToRegExp,
  type RuleConditions,
  ruleVerdict,
} from './rule-match.js';

// The rule conditions on their own: globs, sender, sources, whole words in the text, and the
// first match in order (undecided while a rule before it needs text not read yet).

const rule = (o: Partial<RuleConditions> & { id?: number } = {}) => ({
  id: 0,
  sourceIds: [],
  senderContains: null,
  nameGlob: null,
  textWords: [],
  ...o,
});
const facts = (o: Partial<ArrivalFacts> = {}): ArrivalFacts => ({
  sourceId: 1,
  fileName: 'Invoice-2026-03.PDF',
  sender: 'Billing <billing@acme.example>',
  text: null,
  ...o,
});

describe('intake rule conditions', () => {
  it('globs match the whole name, case-insensitively, with * and ?, and nothing else special', () => {
    expect(globToRegExp('invoice-*.pdf').test('Invoice-2026-03.PDF')).toBe(true);
    expect(globToRegExp('invoice-????-??.pdf').test('invoice-2026-03.pdf')).toBe(true);
    expect(globToRegExp('invoice').test('invoice.pdf')).toBe(false);
    expect(globToRegExp('a.b(1)[x]+').test('a.b(1)[x]+')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });

  it('every condition must hold; an empty one holds', () => {
    expect(ruleVerdict(rule(), facts())).toBe('match');
    expect(ruleVerdict(rule({ sourceIds: [2] }), facts())).toBe('no');
    expect(ruleVerdict(rule({ sourceIds: [2, 1] }), facts())).toBe('match');
    expect(ruleVerdict(rule({ senderContains: 'ACME.example' }), facts())).toBe('match');
    expect(ruleVerdict(rule({ senderContains: 'acme' }), facts({ sender: null }))).toBe('no');
    expect(ruleVerdict(rule({ nameGlob: '*.pdf', senderContains: 'nobody' }), facts())).toBe('no');
  });

  it('words are whole words of the text, in any case and spacing; unknown text is undecided', () => {
    const words = rule({ textWords: ['total due', 'ACME'] });
    expect(ruleVerdict(words, facts())).toBe('needs_text');
    expect(ruleVerdict(words, facts({ text: 'From Acme Ltd.\nTotal\n  due: 12 EUR' }))).toBe('match');
    expect(ruleVerdict(words, facts({ text: 'From Acmestore: total due' }))).toBe('no');
    expect(ruleVerdict(words, facts({ text: '' }))).toBe('no');
  });

  it('the first rule that holds wins; a rule needing text before it leaves the choice open', () => {
    const byName = rule({ id: 1, nameGlob: 'invoice-*' });
    const byWords = rule({ id: 2, textWords: ['invoice'] });
    expect(firstMatch([byName, byWords], facts())).toBe(byName);
    expect(firstMatch([byWords, byName], facts())).toBe('needs_text');
    expect(firstMatch([byWords, byName], facts({ text: 'nothing here' }))).toBe(byName);
    expect(firstMatch([rule({ sourceIds: [9] })], facts())).toBeNull();
  });
});
