import type { Store } from '../../src/store/store.js';

/** Title of the i-th seeded session; the newest (the last one written) is `seededTitle(count - 1)`. */
export function seededTitle(i: number): string {
  return `Bench session ${String(i).padStart(4, '0')}`;
}

/**
 * Writes `count` finished sessions through the real store, spread over `projects`, each a
 * turn of a prompt and a priced answer (model, usage and cost as the loop stores them), so
 * the sessions view and `daemon/costs` have what a daemon used for months has. Every
 * twentieth turn ended in an error, so the list has failed sessions too.
 */
export async function seedSessions(store: Store, projects: readonly string[], count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const sessionId = `bench-${String(i).padStart(5, '0')}`;
    const model = i % 3 === 0 ? 'bench/large' : 'bench/small';
    await store.createSession({ id: sessionId, cwd: projects[i % projects.length]!, title: seededTitle(i), model });
    const turnId = `${sessionId}-t1`;
    await store.startTurn(sessionId, turnId);
    await store.appendMessage({ sessionId, turnId, role: 'user', content: [{ type: 'text', text: `Look at item ${i} and tell me what changed.` }] });
    await store.appendMessage({
      sessionId,
      turnId,
      role: 'assistant',
      content: [{ type: 'text', text: `Item ${i}: two files changed, the tests pass.` }],
      model,
      usage: { inputTokens: 1_200 + i, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      costUsd: model === 'bench/large' ? 0.012 : 0.0021,
    });
    if (i % 20 === 19) await store.endTurn(turnId, 'error', 'the vendor answered 500');
    else await store.endTurn(turnId, 'end_turn');
  }
}
