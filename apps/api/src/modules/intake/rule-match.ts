// Whether an intake rule's conditions hold for an arrival: plain values in, a verdict out.
// The conditions of a rule all hold (an empty one holds): from one of its sources, sent by a
// sender containing its text, a file name matching its glob, every one of its words in the
// file's text. Words need the text, which the extraction job reads after the file is taken:
// a rule with words is undecided until then.

export interface RuleConditions {
  sourceIds: number[];
  senderContains: string | null;
  nameGlob: string | null;
  textWords: string[];
}

export interface ArrivalFacts {
  sourceId: number;
  fileName: string;
  sender: string | null;
  /** The file's extracted text; null while it is not known. */
  text: string | null;
}

type Verdict = 'match' | 'no' | 'needs_text';

/** `*` any run of characters, `?` one; the whole name, case-insensitive. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (const c of glob) {
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else out += c.replace(/[\\^$.*+?()[\]{}|/]/g, (m) => `\\${m}`);
  }
  return new RegExp(`^${out}$`, 'iu');
}

/** Lower case, accents kept, runs of white space as one: what words are looked for in. */
function fold(text: string) {
  return text.toLocaleLowerCase().replace(/\s+/g, ' ');
}

/** Whether `word` stands in `text` as a word (not inside another), both folded. */
function hasWord(text: string, word: string) {
  const w = fold(word.trim());
  if (!w) return true;
  let from = 0;
  for (;;) {
    const at = text.indexOf(w, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + w.length] ?? '';
    if (!/[\p{L}\p{N}]/u.test(before ?? '') && !/[\p{L}\p{N}]/u.test(after)) return true;
    from = at + 1;
  }
}

export function ruleVerdict(rule: RuleConditions, facts: ArrivalFacts): Verdict {
  if (rule.sourceIds.length && !rule.sourceIds.includes(facts.sourceId)) return 'no';
  if (rule.senderContains) {
    if (!facts.sender?.toLocaleLowerCase().includes(rule.senderContains.toLocaleLowerCase())) return 'no';
  }
  if (rule.nameGlob && !globToRegExp(rule.nameGlob).test(facts.fileName)) return 'no';
  if (rule.textWords.length) {
    if (facts.text === null) return 'needs_text';
    const text = fold(facts.text);
    if (!rule.textWords.every((w) => hasWord(text, w))) return 'no';
  }
  return 'match';
}

/**
 * The first rule, in order, whose conditions hold; `needs_text` when a rule before it (or it)
 * cannot be decided without the text; null when none holds.
 */
export function firstMatch<R extends RuleConditions>(
  rules: R[],
  facts: ArrivalFacts,
): R | 'needs_text' | null {
  for (const rule of rules) {
    const v = ruleVerdict(rule, facts);
    if (v === 'needs_text') return 'needs_text';
    if (v === 'match') return rule;
  }
  return null;
}

/** The conditions in words: `from "Scanner", file name "*.pdf", words "invoice"`. */
export function conditionsInWords(rule: RuleConditions, sourceName: (id: number) => string): string {
  const parts: string[] = [];
  if (rule.sourceIds.length)
    parts.push(`from ${rule.sourceIds.map((id) => `"${sourceName(id)}"`).join(' or ')}`);
  if (rule.senderContains) parts.push(`sender contains "${rule.senderContains}"`);
  if (rule.nameGlob) parts.push(`file name "${rule.nameGlob}"`);
  if (rule.textWords.length) parts.push(`text has ${rule.textWords.map((w) => `"${w}"`).join(', ')}`);
  return parts.length ? parts.join(', ') : 'anything';
}
