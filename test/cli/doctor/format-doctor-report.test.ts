import { describe, expect, it } from 'vitest';
import { formatDoctorReport } from '../../../src/cli/doctor/format-doctor-report.js';

describe('formatDoctorReport', () => {
  it('prints aligned lines, indents multi-line details and fixes, and sums up', () => {
    const text = formatDoctorReport({
      ok: false,
      checks: [
        { id: 'node', title: 'Node.js', status: 'ok', detail: 'v20.18.0' },
        { id: 'sandbox', title: 'sandbox', status: 'warn', detail: 'none', fix: 'install bubblewrap' },
        { id: 'config', title: 'config', status: 'fail', detail: 'a.json: x: bad\nb.json: y: bad', fix: 'one\ntwo' },
      ],
    });
    expect(text).toBe(
      [
        'ok    Node.js  v20.18.0',
        'warn  sandbox  none',
        '               fix: install bubblewrap',
        'fail  config   a.json: x: bad',
        '               b.json: y: bad',
        '               fix: one',
        '                    two',
        '',
        '1 failed, 1 warning, 1 ok',
      ].join('\n'),
    );
  });
});
