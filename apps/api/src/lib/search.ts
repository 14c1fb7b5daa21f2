/**
 * A case-insensitive "contains" filter that matches `text` literally: PostgreSQL's LIKE treats
 * `%` and `_` as wildcards and `\` as the escape character, so all three are escaped.
 */
export function containsText(text: string) {
  return { contains: likeEscaped(text), mode: 'insensitive' as const };
}

/** `text` for a LIKE pattern, its `%`, `_` and `\` taken literally. */
export function likeEscaped(text: string) {
  return text.replace(/[\\%_]/g, '\\$&');
}
