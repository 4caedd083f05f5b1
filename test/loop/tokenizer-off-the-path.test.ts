import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/src/loop/', import.meta.url));

/**
 * The compaction check before each model request loads the tokenizer (its tables cost
 * more than the rest of a request's preparation) only when a rough count could be near
 * the warning. Module state is per process, so each case runs in a fresh `node`.
 */
function check(text: string, contextWindow: number): { loaded: boolean; notices: string[] } {
  const script = `
    const { compactIfNeeded } = await import(${JSON.stringify(DIST + 'compact-if-needed.js')});
    const { tokenizerLoaded } = await import(${JSON.stringify(DIST + 'estimate-tokens.js')});
    const { Conversation } = await import(${JSON.stringify(DIST + 'conversation.js')});
    const { CompactionTracker } = await import(${JSON.stringify(DIST + 'compaction-tracker.js')});
    const notices = [];
    const ctx = {
      compaction: new CompactionTracker(),
      conversation: new Conversation([{ role: 'user', content: [{ type: 'text', text: ${JSON.stringify(text)} }] }]),
      turn: { model: { contextWindow: ${contextWindow}, maxOutputTokens: 1000 } },
      port: { emit: (event) => event.type === 'notice' && notices.push(event.message) },
    };
    await compactIfNeeded(ctx, { warned: false });
    console.log(JSON.stringify({ loaded: tokenizerLoaded(), notices }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the tokenizer stays off the path of a short conversation', () => {
  it('is not loaded when even four times the rough count is below the warning', () => {
    expect(check('Fix the failing test in src/app.ts, please.', 128_000)).toEqual({ loaded: false, notices: [] });
  });

  it('is loaded, and counts exactly, once the rough count could be near it: 2,000 CJK characters are about 2,000 tokens, not 500', () => {
    // A 3,000-token window warns at 80% of its usable part; 500 rough tokens × 4 reach it.
    const result = check('漢'.repeat(2_000), 3_000);
    expect(result.loaded).toBe(true);
    expect(result.notices).toEqual([expect.stringMatching(/^The conversation uses \d{4} of 3000 context tokens; it will be compacted at \d+\.$/)]);
  });
});
