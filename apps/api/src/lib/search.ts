/**
 * A case-insensitive "contains" filter that matches `text` literally: PostgreSQL's LIKE treats
 * `%` and `_` as wildcards and `\` as the escape character, so all three are escaped.
 */
export function containsText(text: string) {
  return { contains: text.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' as const };
}
