import { describe, expect, it } from 'vitest';
import { TITLE_MAX_LENGTH, titleFromPrompt } from '../../src/session/title-from-prompt.js';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('titleFromPrompt', () => {
  it('takes the first non-empty line, whitespace collapsed', () => {
    expect(titleFromPrompt([text('\n\n  Fix   the flaky\ttest  \nin src/a.ts')])).toBe('Fix the flaky test');
    expect(titleFromPrompt([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, text('Why is this red?')])).toBe('Why is this red?');
  });

  it('cuts a long line at a word boundary with an ellipsis, never longer than the limit', () => {
    const long = 'Refactor the provider layer so that every protocol shares one streaming parser and one error path';
    const title = titleFromPrompt([text(long)])!;
    expect(title).toBe('Refactor the provider layer so that every protocol shares…');
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_LENGTH);
    const word = 'x'.repeat(100);
    expect(titleFromPrompt([text(word)])).toBe(`${'x'.repeat(TITLE_MAX_LENGTH - 1)}…`);
  });

  it('gives no title to a prompt without text', () => {
    expect(titleFromPrompt([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }])).toBeUndefined();
    expect(titleFromPrompt([text('   \n ')])).toBeUndefined();
  });
});
