import { afterEach, describe, expect, it } from 'vitest';
import type { RpcPeer } from '../support/rpc-peer.js';
import { startTwoClients } from '../support/two-clients.js';

/*
 * A change to a session's mode, model or queue delivery reaches every client following
 * it as ACP config_option_update (the whole options' new state), whichever client made
 * it: a client that reads configOptions (Zed does) ignores current_mode_update.
 */

type Option = { id: string; currentValue: string };
const optionUpdates = (peer: RpcPeer, sessionId: string): Option[][] =>
  peer.updates(sessionId).filter((u) => u.sessionUpdate === 'config_option_update').map((u) => u.configOptions as Option[]);
const current = (options: Option[] | undefined, id: string): string | undefined => options?.find((o) => o.id === id)?.currentValue;

describe('config_option_update to every follower', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two clients, the second following the session; models on two providers. */
  async function twoClients(): Promise<{ editor: RpcPeer; watcher: RpcPeer; sessionId: string }> {
    const bed = await startTwoClients(cleanups, (url) => ({ providers: { other: { type: 'openai-chat', baseUrl: `${url}/v1` } } }));
    await bed.watcher.call('session/load', { sessionId: bed.sessionId, cwd: bed.workspace, mcpServers: [] });
    return bed;
  }

  it('session/set_mode from one client: the other gets current_mode_update and the mode option at its new value', async () => {
    const { editor, watcher, sessionId } = await twoClients();
    await editor.call('session/set_mode', { sessionId, modeId: 'plan' });
    await watcher.waitFor((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'config_option_update');
    expect(watcher.updates(sessionId)).toContainEqual({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
    expect(current(optionUpdates(watcher, sessionId).at(-1), 'mode')).toBe('plan');
    // The client that made the change is told too: its pickers follow the same stream.
    expect(current(optionUpdates(editor, sessionId).at(-1), 'mode')).toBe('plan');
  });

  it('the model and a queue delivery mode set through session/set_config_option', async () => {
    const { editor, watcher, sessionId } = await twoClients();
    await editor.call('session/set_config_option', { sessionId, configId: 'model', value: 'other/second-model' });
    await watcher.waitFor((m) => m.method === 'session/update' && current(m.params.update.configOptions, 'model') === 'other/second-model');
    await editor.call('session/set_config_option', { sessionId, configId: 'steeringMode', value: 'oneAtATime' });
    await watcher.waitFor((m) => m.method === 'session/update' && current(m.params.update.configOptions, 'steeringMode') === 'oneAtATime');
    await editor.call('session/set_config_option', { sessionId, configId: 'mode', value: 'explore' });
    await watcher.waitFor((m) => m.method === 'session/update' && current(m.params.update.configOptions, 'mode') === 'explore');
    const last = optionUpdates(watcher, sessionId).at(-1);
    expect([current(last, 'mode'), current(last, 'model'), current(last, 'steeringMode')]).toEqual(['explore', 'other/second-model', 'oneAtATime']);
  });

  it('a refused change sends nothing', async () => {
    const { editor, watcher, sessionId } = await twoClients();
    const bad = await editor.request('session/set_config_option', { sessionId, configId: 'model', value: 'nowhere/x' });
    expect(bad.error!.code).toBe(-32602);
    await editor.call('session/set_mode', { sessionId, modeId: 'plan' });
    await watcher.waitFor((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'config_option_update');
    // Only the mode's update came: the refused model change sent none.
    expect(optionUpdates(watcher, sessionId).map((o) => current(o, 'mode'))).toEqual(['plan']);
  });
});
