// What a refusal says, read the same way by every test.

/** The paths a 400 names (`body.email`, `row 3.username`), in the answer's order. */
export function errorPaths(res: { json: () => unknown }): string[] {
  return (res.json() as { errors: Array<{ path: string }> }).errors.map((e) => e.path);
}
