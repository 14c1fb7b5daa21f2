// The text kept for search, from what a reader or text recognition gave: NUL cannot be stored
// in PostgreSQL text and other control characters (and the search's own mark characters)
// become spaces; runs of spaces become one, blank lines go. Shared by the child processes.

/** @param {string} text */
export function cleanText(text) {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ue000\ue001]/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim()
  );
}
