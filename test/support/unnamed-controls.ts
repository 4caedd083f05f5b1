/**
 * Controls in server-rendered markup that a screen reader would announce without a name:
 * an <input>, <select> or <textarea> with neither an aria-label nor a <label for> its id
 * (nor a wrapping <label>), a <button> or <a> with neither text nor an aria-label. Also
 * any `style` attribute, which the page's Content-Security-Policy would refuse. Works on
 * the markup preact-render-to-string writes (attributes quoted, no comments).
 */
export function unnamedControls(html: string): string[] {
  const problems: string[] = [];
  const labelled = new Set([...html.matchAll(/<label[^>]*\sfor="([^"]+)"/g)].map((m) => m[1]!));
  // Ranges of <label>…</label>, whose controls are named by the label's text.
  const labelRanges = [...html.matchAll(/<label[^>]*>[\s\S]*?<\/label>/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const insideLabel = (at: number): boolean => labelRanges.some(([start, end]) => at > start && at < end);
  for (const m of html.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
    const attrs = m[2]!;
    if (/\stype="hidden"/.test(attrs) || /\saria-label="[^"]+"/.test(attrs) || /\saria-labelledby="[^"]+"/.test(attrs)) continue;
    const id = /\sid="([^"]+)"/.exec(attrs)?.[1];
    if ((id && labelled.has(id)) || insideLabel(m.index)) continue;
    problems.push(`<${m[1]}${attrs}> has no label`);
  }
  for (const m of html.matchAll(/<(button|a)\b([^>]*)>([\s\S]*?)<\/\1>/g)) {
    const text = m[3]!.replace(/<[^>]+>/g, '').trim();
    if (text === '' && !/\saria-label="[^"]+"/.test(m[2]!)) problems.push(`<${m[1]}${m[2]}> has no text or aria-label`);
  }
  for (const m of html.matchAll(/<[a-z]+\b[^>]*\sstyle="[^"]*"/g)) problems.push(`inline style: ${m[0]}`);
  return problems;
}
