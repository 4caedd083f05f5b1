/**
 * How many items, from the first, two lists share (the same objects). A session's request
 * repeats the last one's messages and adds a few: what was worked out for the shared start
 * last time holds again, as messages are never changed once made.
 */
export function commonStart(a: readonly unknown[], b: readonly unknown[]): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  return i;
}
