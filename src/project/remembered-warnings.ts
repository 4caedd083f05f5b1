import fs from 'node:fs';
import path from 'node:path';

/**
 * Warnings shown once per machine, not once per process: `agentd run` starts a daemon per
 * prompt, so a per-process "once" would repeat a standing fact (a model missing from the
 * catalog) on every run. The keys shown so far live in one JSON file in the state
 * directory (state that may be lost: losing it only shows a warning once more).
 */
export class RememberedWarnings {
  private shown: Set<string> | undefined;

  constructor(private readonly file: string) {}

  /** True the first time `key` is asked about on this machine; it is remembered from then on. */
  firstTime(key: string): boolean {
    const shown = (this.shown ??= this.read());
    if (shown.has(key)) return false;
    shown.add(key);
    this.write(shown);
    return true;
  }

  private read(): Set<string> {
    try {
      const keys: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
    } catch {
      // Missing or unreadable: nothing shown yet.
      return new Set();
    }
  }

  /** Best effort: a state directory that cannot be written costs a repeated warning, never a failed turn. */
  private write(shown: Set<string>): void {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, `${JSON.stringify([...shown].sort())}\n`, { mode: 0o600 });
      fs.renameSync(temporary, this.file);
    } catch {
      // See above.
    }
  }
}
