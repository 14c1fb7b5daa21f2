/**
 * A word nobody else wrote, of letters only (text recognition reads no digits into it): for
 * journeys that find a scan by a word printed on it.
 */
export function uniqueWord(): string {
  const consonants = 'bdfgkpstvz';
  const vowels = 'aeu';
  const pick = (letters: string) => letters[Math.floor(Math.random() * letters.length)] as string;
  let word = 'Quor';
  for (let i = 0; i < 5; i++) word += pick(consonants) + pick(vowels);
  return word;
}

/** `s` as a regular expression matching it literally. */
export const literal = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
