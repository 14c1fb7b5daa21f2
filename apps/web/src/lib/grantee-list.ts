/** A person or a group in a list of grants being edited. */
export interface GranteeRow {
  kind: 'user' | 'group';
  id: number;
}

/**
 * The grants after the picker of one `kind` (People or Groups) chose `ids`: the other kind's
 * grants as they were, this kind's still chosen kept with their rights, and each newly chosen
 * one added as `fresh(id)` makes it.
 */
export function chooseGrantees<R extends GranteeRow>(
  list: readonly R[],
  kind: R['kind'],
  ids: readonly number[],
  fresh: (id: number) => R,
): R[] {
  const others = list.filter((r) => r.kind !== kind);
  const kept = list.filter((r) => r.kind === kind && ids.includes(r.id));
  const added = ids.filter((id) => !kept.some((r) => r.id === id)).map(fresh);
  return [...others, ...kept, ...added];
}
