/** Longest line text shown per grep line; minified files would otherwise flood the output. */
const MAX_GREP_LINE_CHARS = 500;

/** ripgrep's `--json` text or bytes field (https://docs.rs/grep-printer/latest/grep_printer/struct.JSON.html). */
interface RgData {
  text?: string;
  bytes?: string;
}

interface RgLineEvent {
  type: 'match' | 'context';
  data: { path: RgData; lines: RgData; line_number: number | null };
}

function dataText(data: RgData): string {
  return data.text ?? Buffer.from(data.bytes ?? '', 'base64').toString('utf8');
}

function cut(text: string): string {
  return text.length > MAX_GREP_LINE_CHARS ? `${text.slice(0, MAX_GREP_LINE_CHARS)} … [line cut]` : text;
}

/**
 * Turns `rg --json` events into ripgrep's classic text form (`path:12:match`,
 * `path-13-context`, `--` between separate blocks), keeping the first `cap` matches
 * (and their context) while counting all of them.
 */
export class RgMatchCollector {
  /** Matches seen (a multiline match counts once). */
  total = 0;
  private readonly lines: string[] = [];
  private shown = 0;
  private lastPath: string | undefined;
  private lastLine = 0;
  /** Last line of the last kept match; trailing context after it is kept even at the cap. */
  private lastMatchEnd = 0;

  constructor(
    private readonly cap: number,
    private readonly context: number,
    private readonly showPath: (rgPath: string) => string,
  ) {}

  /** Feeds one line of rg's stdout. */
  push(jsonLine: string): void {
    let event: { type?: string };
    try {
      event = JSON.parse(jsonLine) as { type?: string };
    } catch {
      return;
    }
    if (event.type !== 'match' && event.type !== 'context') return;
    const { data } = event as RgLineEvent;
    const isMatch = event.type === 'match';
    if (isMatch) this.total += 1;
    const file = dataText(data.path);
    const first = data.line_number ?? 0;
    const texts = dataText(data.lines).replace(/\r?\n$/, '').split(/\r?\n/);
    const keep = isMatch
      ? this.shown < this.cap
      : this.shown < this.cap || (file === this.lastPath && first <= this.lastMatchEnd + this.context);
    if (!keep) return;
    if (this.lines.length > 0 && (file !== this.lastPath || first !== this.lastLine + 1)) this.lines.push('--');
    const shownPath = this.showPath(file);
    texts.forEach((text, i) => {
      this.lines.push(`${shownPath}${isMatch ? ':' : '-'}${first + i}${isMatch ? ':' : '-'}${cut(text)}`);
    });
    this.lastPath = file;
    this.lastLine = first + texts.length - 1;
    if (isMatch) {
      this.shown += 1;
      this.lastMatchEnd = this.lastLine;
    }
  }

  /** Matches kept in the output. */
  get shownCount(): number {
    return this.shown;
  }

  /** The kept lines as text. */
  text(): string {
    return this.lines.join('\n');
  }
}
