import type { DoctorReport } from './doctor-check.js';

/**
 * The checklist `agentd doctor` prints: one line per check (status, title, detail), the
 * fix indented under every check that is not ok, and a one-line summary.
 *
 *     ok    Node.js          v20.18.0 (needs 20.18.0 or newer)
 *     warn  sandbox          bash sandbox: none — …
 *           fix: install bubblewrap: …
 */
export function formatDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.title.length));
  const lines: string[] = [];
  for (const check of report.checks) {
    const [first = '', ...rest] = check.detail.split('\n');
    const indent = ' '.repeat(6 + width + 2);
    lines.push(`${check.status.padEnd(6)}${check.title.padEnd(width)}  ${first}`);
    for (const line of rest) lines.push(`${indent}${line}`);
    if (check.fix !== undefined) {
      const [fixFirst = '', ...fixRest] = check.fix.split('\n');
      lines.push(`${indent}fix: ${fixFirst}`);
      for (const line of fixRest) lines.push(`${indent}     ${line}`);
    }
  }
  const count = (status: string): number => report.checks.filter((check) => check.status === status).length;
  lines.push('', `${count('fail')} failed, ${count('warn')} warning${count('warn') === 1 ? '' : 's'}, ${count('ok')} ok`);
  return lines.join('\n');
}
