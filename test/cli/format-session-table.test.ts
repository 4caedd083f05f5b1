import { describe, expect, it } from 'vitest';
import { formatSessionTable, relativeTime } from '../../src/cli/sessions/format-session-table.js';

describe('formatSessionTable', () => {
  const now = new Date('2026-11-26T12:00:00Z');

  it('says how long ago, and past a week the local date and time', () => {
    const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);
    expect([ago(5), ago(300), ago(3 * 3600), ago(86_400 + 60), ago(3 * 86_400)]).toEqual(['just now', '5 min ago', '3 h ago', 'yesterday', '3 days ago']);
    const old = new Date(2026, 0, 2, 9, 5);
    expect(relativeTime(old, now)).toBe('2026-01-02 09:05');
  });

  it('aligns columns under a header, shortens ids, shows a missing model as - and controls as escapes', () => {
    const table = formatSessionTable(
      [
        { id: '229cfd80-930a-4863-9314-1ee95bfae5c9', updatedAt: '2026-11-26T11:58:00Z', model: 'local/tiny', costUsd: 0.01234, cwd: '/p', title: 'hi\x1b[2J' },
        { id: 'b6d3019b-534c-4f01-80b1-9864cb3ba6de', updatedAt: '2026-11-26T11:59:59Z', model: null, costUsd: 0, cwd: '/longer', title: null },
      ],
      now,
    );
    expect(table).toBe(
      [
        'ID        UPDATED    MODEL       COST     DIRECTORY  TITLE',
        '229cfd80  2 min ago  local/tiny  $0.0123  /p         hi\\e[2J',
        'b6d3019b  just now   -           $0.0000  /longer',
        '',
      ].join('\n'),
    );
  });
});
