/**
 * How many items, from the first, two lists share (the same objects), `b` read from `from`
 * on. A session's request repeats the last one's messages and adds a few: what was worked out
 * for the shared start last time holds again, as messages are never changed once made.
 */
export function commonStart(a: readonly unknown[], b: readonly unknown[], from = 0): number {
  const length = Math.min(a.length, b.length - from);
  let i = 0;
  while (i < length && a[i] === b[from + i]) i++;
  return i;
}
