/** A copy of `set` with `item` taken out when it was in, put in when it was not. */
export function toggledIn<T>(set: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(set);
  if (!next.delete(item)) next.add(item);
  return next;
}
