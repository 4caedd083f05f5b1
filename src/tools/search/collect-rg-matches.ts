import { ripgrepPathKey } from './run-ripgrep.js';

/** Longest line text shown per grep line; minified files would otherwise flood the output. */
const MAX_GREP_LINE_CHARS = 500;

/** ripgrep's `--json` text or bytes field (https://docs.rs/grep-printer/latest/grep_printer/struct.JSON.html). */
interface RgData {
  text?: string;
  bytes?: string;
}

interface RgLineEvent {
  type: 'match' | 'context';
  data: { lines: RgData; line_number: number | null };
}

/** One match or context event of a file, as it will be printed. */
interface LineEvent {
  isMatch: boolean;
  first: number;
  texts: string[];
}

/** The events kept for one file. */
interface FileBlock {
  path: string;
  /** ripgrepPathKey of the path: its string order is rg's `--sort path` order. */
  key: string;
  events: LineEvent[];
  /** Matches kept in `events` (at most the cap: later ones in the same file can never be shown). */
  kept: number;
  /** Last line of the last kept match, for trailing context. */
  lastMatchEnd: number;
  /** A context line beyond the last kept match's reach was seen; later ones are out of reach too. */
  contextDone: boolean;
}

// rg's JSON printer writes `type` first (serde's tagged enum), so events can be told apart
// without parsing; a line that does not look like this is parsed as a fallback.
const MATCH_PREFIX = '{"type":"match"';
const CONTEXT_PREFIX = '{"type":"context"';
const BEGIN_PREFIX = '{"type":"begin"';

function dataText(data: RgData): string {
  return data.text ?? Buffer.from(data.bytes ?? '', 'base64').toString('utf8');
}

function cut(text: string): string {
  return text.length > MAX_GREP_LINE_CHARS ? `${text.slice(0, MAX_GREP_LINE_CHARS)} … [line cut]` : text;
}

/**
 * Turns `rg --json` events into ripgrep's classic text form (`path:12:match`,
 * `path-13-context`, `--` between separate blocks), sorted by path as `rg --sort path`
 * would, keeping the first `cap` matches (and their context) while counting all of them.
 *
 * rg runs in parallel (`--sort` would make it single-threaded: half the speed on two
 * cores), printing each file's events together between `begin` and `end`. Only files that
 * can still be among the first `cap` matches by path are kept and parsed; every other
 * match line is just counted, so a pattern with 100,000 matches costs little more than rg.
 */
export class RgMatchCollector {
  /** Matches seen (a multiline match counts once). */
  total = 0;
  private readonly blocks: FileBlock[] = [];
  /** Sum of `kept` over `blocks`. */
  private keptInBlocks = 0;
  /** The largest `key` in `blocks`. */
  private maxKey = '';
  private current: FileBlock | undefined;
  /** The current file is one `skipFile` leaves out: its matches are neither kept nor counted. */
  private skipping = false;
  private formatted: { text: string; shown: number } | undefined;

  constructor(
    private readonly cap: number,
    private readonly context: number,
    private readonly showPath: (rgPath: string) => string,
    /** Files whose matches must not appear at all, not even in the total (paths hidden from agentd's tools). */
    private readonly skipFile: (rgPath: string) => boolean = () => false,
  ) {}

  /** Feeds one line of rg's stdout. */
  push(jsonLine: string): void {
    if (jsonLine.startsWith(MATCH_PREFIX)) this.onLine(jsonLine, true);
    else if (jsonLine.startsWith(CONTEXT_PREFIX)) this.onLine(jsonLine, false);
    else if (jsonLine.startsWith(BEGIN_PREFIX)) this.onBegin(jsonLine);
    else if (!jsonLine.startsWith('{"type":"')) this.onUnknown(jsonLine);
  }

  private onBegin(jsonLine: string): void {
    this.endFile();
    const event = parse(jsonLine) as { data?: { path?: RgData } } | undefined;
    const filePath = event?.data?.path ? dataText(event.data.path) : '';
    this.skipping = this.skipFile(filePath);
    if (this.skipping) return;
    const key = ripgrepPathKey(filePath);
    // Files whose path sorts after every kept one, once those hold `cap` matches, cannot be shown.
    if (this.keptInBlocks >= this.cap && key > this.maxKey) {
      this.current = undefined;
      return;
    }
    this.current = { path: filePath, key, events: [], kept: 0, lastMatchEnd: 0, contextDone: false };
  }

  private onLine(jsonLine: string, isMatch: boolean): void {
    if (this.skipping) return;
    if (isMatch) this.total += 1;
    const block = this.current;
    if (!block || (isMatch ? block.kept >= this.cap : block.contextDone)) return;
    if (!isMatch && block.kept >= this.cap) {
      // Past this file's cap only trailing context of its last kept match can still be shown.
      const event = toLineEvent(jsonLine, false);
      if (event && event.first <= block.lastMatchEnd + this.context) block.events.push(event);
      else block.contextDone = true;
      return;
    }
    const event = toLineEvent(jsonLine, isMatch);
    if (!event) return;
    block.events.push(event);
    if (isMatch) {
      block.kept += 1;
      block.lastMatchEnd = event.first + event.texts.length - 1;
    }
  }

  /** A line that is not in rg's usual form: parse it and route it by its type. */
  private onUnknown(jsonLine: string): void {
    const type = (parse(jsonLine) as { type?: unknown } | undefined)?.type;
    if (type === 'match' || type === 'context') this.onLine(jsonLine, type === 'match');
    else if (type === 'begin') this.onBegin(jsonLine);
  }

  /** Keeps the finished file if it has matches, then drops files that can no longer be shown. */
  private endFile(): void {
    const block = this.current;
    this.current = undefined;
    if (!block || block.kept === 0) return;
    this.blocks.push(block);
    this.keptInBlocks += block.kept;
    if (block.key > this.maxKey) this.maxKey = block.key;
    // Nothing can be dropped before the kept files hold more than `cap` matches; after
    // that only files arriving out of path order get here (onBegin skips the others).
    if (this.keptInBlocks <= this.cap) return;
    for (;;) {
      let last = 0;
      for (let i = 1; i < this.blocks.length; i += 1) if (this.blocks[i]!.key > this.blocks[last]!.key) last = i;
      const lastBlock = this.blocks[last]!;
      this.maxKey = lastBlock.key;
      if (this.keptInBlocks - lastBlock.kept < this.cap) break;
      this.blocks.splice(last, 1);
      this.keptInBlocks -= lastBlock.kept;
    }
  }

  /** Matches kept in the output. */
  get shownCount(): number {
    return this.format().shown;
  }

  /** The kept lines as text. */
  text(): string {
    return this.format().text;
  }

  private format(): { text: string; shown: number } {
    if (this.formatted) return this.formatted;
    this.endFile();
    const lines: string[] = [];
    let shown = 0;
    let lastPath: string | undefined;
    let lastLine = 0;
    let lastMatchEnd = 0;
    for (const block of [...this.blocks].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      const shownPath = this.showPath(block.path);
      for (const { isMatch, first, texts } of block.events) {
        const keep = shown < this.cap || (!isMatch && block.path === lastPath && first <= lastMatchEnd + this.context);
        if (!keep) continue;
        if (lines.length > 0 && (block.path !== lastPath || first !== lastLine + 1)) lines.push('--');
        const mark = isMatch ? ':' : '-';
        texts.forEach((text, i) => lines.push(`${shownPath}${mark}${first + i}${mark}${cut(text)}`));
        lastPath = block.path;
        lastLine = first + texts.length - 1;
        if (isMatch) {
          shown += 1;
          lastMatchEnd = lastLine;
        }
      }
    }
    this.formatted = { text: lines.join('\n'), shown };
    return this.formatted;
  }
}

function parse(jsonLine: string): unknown {
  try {
    return JSON.parse(jsonLine) as unknown;
  } catch {
    return undefined;
  }
}

function toLineEvent(jsonLine: string, isMatch: boolean): LineEvent | undefined {
  const event = parse(jsonLine) as RgLineEvent | undefined;
  if (!event?.data) return undefined;
  const texts = dataText(event.data.lines).replace(/\r?\n$/, '').split(/\r?\n/);
  return { isMatch, first: event.data.line_number ?? 0, texts };
}
