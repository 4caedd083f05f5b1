import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { DaemonHealthLog } from '../../src/server/daemon-health-log.js';

/** A log whose clock moves one second per entry, so each entry's time says its order. */
function log(): DaemonHealthLog {
  let tick = Date.parse('2025-06-01T00:00:00.000Z');
  return new DaemonHealthLog(() => new Date((tick += 1000)));
}

const overloaded = new ProviderError({ kind: 'overloaded', message: '529 overloaded', provider: 'anthropic', model: 'claude-sonnet-4-5' });

describe('DaemonHealthLog', () => {
  it('keeps the newest 100 provider incidents, newest first, and ignores what is not one', () => {
    const health = log();
    for (let attempt = 1; attempt <= 120; attempt++) health.sessionEvent('s1', { type: 'retry', attempt, delayMs: 10, error: overloaded });
    health.sessionEvent('s1', { type: 'breaker', provider: 'anthropic', state: 'half_open' });
    health.sessionEvent('s1', { type: 'text_delta', messageId: 'm', text: 'hi' });
    const recent = health.recentIncidents();
    expect(recent).toHaveLength(100);
    expect(recent[0]).toEqual({ at: '2025-06-01T00:02:00.000Z', kind: 'retry', provider: 'anthropic', model: 'claude-sonnet-4-5', sessionId: 's1', detail: 'attempt 120 in 10 ms: 529 overloaded' });
    expect(recent[99]!.detail).toMatch(/^attempt 21 /);
  });

  it('reads its clock only for the session events it keeps, not for every streamed delta', () => {
    let reads = 0;
    const health = new DaemonHealthLog(() => {
      reads += 1;
      return new Date(0);
    });
    for (let i = 0; i < 50; i++) health.sessionEvent('s1', { type: 'text_delta', messageId: 'm', text: `${i}` });
    health.sessionEvent('s1', { type: 'thinking_delta', messageId: 'm', text: 'hm' });
    expect(reads).toBe(0);
    health.sessionEvent('s1', { type: 'retry', attempt: 1, delayMs: 10, error: overloaded });
    expect(reads).toBe(1);
    expect(health.recentIncidents()).toHaveLength(1);
  });

  it('keeps the newest 50 configuration edits, newest first', () => {
    const health = log();
    for (let i = 1; i <= 60; i++) health.daemonEvent({ type: 'config_rejected', file: `/cfg/${i}.json`, problem: 'bad', sessionIds: [] });
    health.daemonEvent({ type: 'config_reloaded', file: '/cfg/61.json', sessionIds: [] });
    const changes = health.recentConfigChanges();
    expect(changes).toHaveLength(50);
    expect(changes[0]).toEqual({ at: expect.any(String), file: '/cfg/61.json', outcome: 'reloaded' });
    expect(changes[49]).toEqual({ at: expect.any(String), file: '/cfg/12.json', outcome: 'rejected', problem: 'bad' });
  });

  it('keeps one entry per MCP server, config and session servers apart, with its last failure after it recovers', () => {
    const health = log();
    health.daemonEvent({ type: 'mcp_server', name: 'github', state: 'failed', tools: 0, error: 'exited with code 1' });
    health.daemonEvent({ type: 'mcp_server', name: 'github', state: 'running', tools: 12 });
    health.daemonEvent({ type: 'mcp_server', name: 'github', sessionId: 's1', state: 'starting', tools: 0 });
    expect(health.mcpServers()).toEqual([
      { name: 'github', state: 'running', tools: 12, lastError: 'exited with code 1' },
      { name: 'github', sessionId: 's1', state: 'starting', tools: 0, lastError: null },
    ]);
  });

  it('forgets an MCP server once it is stopped (a session closed, or it left the config), so the log stays bounded', () => {
    const health = log();
    for (let i = 0; i < 500; i++) {
      health.daemonEvent({ type: 'mcp_server', name: 'fs', sessionId: `s${i}`, state: 'running', tools: 3 });
      health.daemonEvent({ type: 'mcp_server', name: 'fs', sessionId: `s${i}`, state: 'stopped', tools: 0 });
    }
    health.daemonEvent({ type: 'mcp_server', name: 'github', state: 'running', tools: 12 });
    health.daemonEvent({ type: 'mcp_server', name: 'fs', sessionId: 'live', state: 'running', tools: 3 });
    expect(health.mcpServers()).toEqual([
      { name: 'fs', sessionId: 'live', state: 'running', tools: 3, lastError: null },
      { name: 'github', state: 'running', tools: 12, lastError: null },
    ]);
  });
});
