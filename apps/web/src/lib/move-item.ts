/** A copy of `list` with the item at `index` moved `by` places (-1: up, 1: down). */
export function moveItem<T>(list: readonly T[], index: number, by: number): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item as T);
  return next;
}
