/** One line of a diff: kept, removed from the old text, or added in the new. */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Above this many old × new lines the diff shows every old line removed and every new one added, not a minimal diff. */
const MAX_CELLS = 4_000_000;

/** The lines of `oldText` → `newText` as kept, removed and added (a longest-common-subsequence diff); a new file is all added. */
export function lineDiff(oldText: string | null | undefined, newText: string): DiffLine[] {
  const before = oldText ? oldText.split('\n') : [];
  const after = newText.split('\n');
  if (before.length * after.length > MAX_CELLS) {
    return [...before.map((text) => ({ op: '-' as const, text })), ...after.map((text) => ({ op: '+' as const, text }))];
  }
  // common[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const width = after.length + 1;
  const common = new Uint32Array((before.length + 1) * width);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * width + j] = before[i] === after[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      lines.push({ op: ' ', text: before[i++]! });
      j++;
    } else if (i < before.length && (j === after.length || common[(i + 1) * width + j]! >= common[i * width + j + 1]!)) {
      // Removals first where either order keeps the subsequence, as `diff -u` prints them.
      lines.push({ op: '-', text: before[i++]! });
    } else {
      lines.push({ op: '+', text: after[j++]! });
    }
  }
  return lines;
}
