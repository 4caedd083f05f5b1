import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

/** Characters of output the model sees: the first half and the last half of this budget. */
export const OUTPUT_MAX_CHARS = 30_000;

/** The output of a finished command, as the model sees it. */
export interface CollectedOutput {
  /** All output, or head + marker + tail when it was longer than the budget. */
  text: string;
  /** Characters produced in all. */
  totalChars: number;
  /** True when the middle was cut. */
  truncated: boolean;
  /** The file holding all of it, when it was cut. */
  fullOutputPath?: string;
}

/**
 * Keeps a command's output as head and tail within a fixed budget, so a command printing
 * gigabytes costs bounded memory; once the budget is exceeded everything (including what
 * came before) is streamed to `spillFile`, whose path the model is told.
 */
export class OutputCollector {
  private readonly half = Math.floor(OUTPUT_MAX_CHARS / 2);
  private early: string[] = [];
  private head = '';
  private tail = '';
  private total = 0;
  private over = false;
  private spill: WriteStream | undefined;
  private spillError: Error | undefined;

  constructor(private readonly spillFile: string) {}

  push(text: string): void {
    if (text === '') return;
    this.total += text.length;
    if (this.head.length < this.half) this.head += text.slice(0, this.half - this.head.length);
    this.tail += text;
    // Trim rarely (at twice the size) so appending stays amortised O(1).
    if (this.tail.length > this.half * 2) this.tail = this.tail.slice(-this.half);
    if (this.over) {
      this.spill?.write(text);
      return;
    }
    this.early.push(text);
    if (this.total > OUTPUT_MAX_CHARS) {
      this.over = true;
      this.startSpill();
    }
  }

  /** What the model would see if the command ended now. */
  view(): string {
    if (!this.over) return this.early.join('');
    const omitted = this.total - this.head.length - Math.min(this.half, this.tail.length);
    const where = this.spillError ? `the full output could not be saved: ${this.spillError.message}` : `full output: ${this.spillFile}`;
    return `${this.head}\n\n… [${omitted} characters omitted; ${where}] …\n\n${this.tail.slice(-this.half)}`;
  }

  /** Flushes the spill file and returns the final view. */
  async finish(): Promise<CollectedOutput> {
    const text = this.view();
    const truncated = this.over;
    if (this.spill) {
      const stream = this.spill;
      await new Promise<void>((resolve) => {
        stream.end(() => resolve());
      });
    }
    const saved = truncated && !this.spillError;
    return saved
      ? { text, totalChars: this.total, truncated, fullOutputPath: this.spillFile }
      : { text, totalChars: this.total, truncated };
  }

  private startSpill(): void {
    try {
      mkdirSync(path.dirname(this.spillFile), { recursive: true });
      this.spill = createWriteStream(this.spillFile, { mode: 0o600 });
      this.spill.on('error', (error) => {
        this.spillError = error;
      });
      for (const piece of this.early) this.spill.write(piece);
    } catch (error) {
      this.spillError = error instanceof Error ? error : new Error(String(error));
    }
    this.early = [];
  }
}
