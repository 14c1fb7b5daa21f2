// Names unique across test files and runs (the app's names are unique per company).

let seq = 0;

/** `base` with a counter and the time: "List 3 lq2x9k". */
export function uniqueName(base: string): string {
  seq += 1;
  return `${base} ${seq} ${Date.now().toString(36)}`;
}
