/** `%text%` for a LIKE on a lower-cased column: the text lower-cased, its wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
