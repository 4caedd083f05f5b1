import { median } from '../support/daemon-client.js';
import type { RunFigures } from './acp-run.js';

const figures = ['initializeMs', 'sessionNewMs', 'firstPromptToRequestMs', 'streamMs', 'ttftAddedMs', 'peakRssMiB', 'hwmSumMiB', 'pssAfterReplyMiB', 'wireBytes', 'chunks'] as const;
type Figure = (typeof figures)[number];

export interface SummaryRow {
  contender: string;
  runs: number;
  /** Medians of the runs. */
  medians: Partial<Record<Figure, number>>;
  /** Runs whose concatenated chunks were not the vendor's text. */
  textMismatches: number;
  /** Why the contender stopped running, when it did. */
  error?: string;
}

export function summarize(results: Map<string, RunFigures[]>, failures: Map<string, string>, chunks: number): SummaryRow[] {
  return [...results].map(([contender, runs]) => {
    const medians: SummaryRow['medians'] = {};
    for (const figure of figures) {
      const values = runs.map((run) => run[figure]).filter((value): value is number => typeof value === 'number' && !Number.isNaN(value));
      if (values.length > 0) medians[figure] = round(median(values));
    }
    const textMismatches = runs.filter((run) => run.textMatches === false || (run.chunks !== undefined && run.chunks === 0 && chunks > 0)).length;
    return { contender, runs: runs.length, medians, textMismatches, ...(failures.has(contender) ? { error: failures.get(contender)!.split('\n')[0] } : {}) };
  });
}

/** A Markdown table of the medians, each figure also as a ratio to agentd's (the chat-completions row). */
export function printSummary(rows: SummaryRow[]): void {
  const base = rows.find((row) => row.contender === 'agentd')?.medians;
  const cell = (row: SummaryRow, figure: Figure, digits = 1): string => {
    const value = row.medians[figure];
    if (value === undefined) return '–';
    const ratio = base?.[figure] && row.contender !== 'agentd' ? ` (${(value / base[figure]!).toFixed(2)}×)` : '';
    return `${value.toFixed(digits)}${ratio}`;
  };
  console.log('| contender | runs | spawn → initialize ms | spawn → session/new ms | first prompt → model request ms | 2,000-chunk reply ms | TTFT added ms | peak RSS MiB | Σ VmHWM MiB | PSS after reply MiB | text ok |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const ok = row.runs === 0 ? '–' : row.textMismatches === 0 ? 'yes' : `${row.runs - row.textMismatches}/${row.runs}`;
    console.log(
      `| ${row.contender} | ${row.runs} | ${cell(row, 'initializeMs')} | ${cell(row, 'sessionNewMs')} | ${cell(row, 'firstPromptToRequestMs')} | ${cell(row, 'streamMs', 0)} | ${cell(row, 'ttftAddedMs', 2)} | ${cell(row, 'peakRssMiB')} | ${cell(row, 'hwmSumMiB')} | ${cell(row, 'pssAfterReplyMiB')} | ${ok} |`,
    );
  }
  for (const row of rows) if (row.error) console.log(`${row.contender}: ${row.error}`);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
