/**
 * Cohere accepts tool names of `A-Za-z0-9_` that do not begin with a digit (its error
 * "tool names can only contain certain characters (A-Za-z0-9_) and can't begin with a
 * digit", https://docs.cohere.com/reference/errors), while agentd's tools may also use
 * `-` (MCP tools). Each name is spelled for Cohere once per request, the same way in the
 * tool list and in the history's calls, and the calls Cohere streams are read back to
 * the original name.
 */
export class CohereToolNames {
  private readonly toCohere = new Map<string, string>();
  private readonly fromCohere = new Map<string, string>();

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.spell(name);
  }

  /** The name as sent to Cohere. */
  spell(name: string): string {
    const known = this.toCohere.get(name);
    if (known !== undefined) return known;
    let spelled = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (spelled === '' || /^[0-9]/.test(spelled)) spelled = `t_${spelled}`;
    // Two names that spell the same (`a-b`, `a_b`) stay two tools.
    const base = spelled;
    for (let n = 2; this.fromCohere.has(spelled) && this.fromCohere.get(spelled) !== name; n += 1) spelled = `${base}_${n}`;
    this.toCohere.set(name, spelled);
    this.fromCohere.set(spelled, name);
    return spelled;
  }

  /** The original name of a name Cohere sent; unknown names are kept as they are. */
  original(cohereName: string): string {
    return this.fromCohere.get(cohereName) ?? cohereName;
  }
}
