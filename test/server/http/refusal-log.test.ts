import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../../src/server/http/refusal-log.js';

describe('[F19 browser] RefusalLog', () => {
  it('logs ten refusals a minute, then how many more there were once the next minute starts', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const log = new RefusalLog((line) => void lines.push(line), () => now);
    for (let i = 0; i < 25; i++) log.refused(`refusal ${i}`);
    expect(lines).toEqual(Array.from({ length: 10 }, (_, i) => `refusal ${i}`));
    now += 60_000;
    log.refused('next minute');
    expect(lines.slice(10)).toEqual(['http: 15 more refusal(s) in the last minute not logged', 'next minute']);
  });
});
