import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { ConfigChangeTable } from '../../../../../clients/web/src/views/health/config-change-table.js';
import type { Health } from '../../../../../clients/web/src/views/health/health-types.js';
import { McpServerTable } from '../../../../../clients/web/src/views/health/mcp-server-table.js';
import { ProviderTable } from '../../../../../clients/web/src/views/health/provider-table.js';
import { RecentProviderEvents } from '../../../../../clients/web/src/views/health/recent-provider-events.js';
import { SandboxSummary } from '../../../../../clients/web/src/views/health/sandbox-summary.js';
import { unnamedControls } from '../../../../support/unnamed-controls.js';

const providers: Health['providers'] = [
  { id: 'anthropic', type: 'anthropic-messages', project: null, hasKey: true, keySource: 'env', baseUrl: null, breaker: { state: 'closed', consecutiveFailures: 0, openedAt: null } },
  {
    id: 'openai',
    type: 'openai-chat',
    project: '/home/ada/proj',
    hasKey: false,
    keySource: 'none',
    baseUrl: 'https://api.openai.com/v1',
    breaker: { state: 'open', consecutiveFailures: 5, openedAt: '2026-11-27T03:10:00.000Z' },
  },
  { id: 'local', type: 'openai-chat', project: null, hasKey: false, keySource: 'not_needed', baseUrl: 'http://127.0.0.1:11434/v1', breaker: { state: 'half_open', consecutiveFailures: 1, openedAt: null } },
];

describe('the health view\'s parts', () => {
  it('lists providers with where their key comes from and their breaker, the table named by its heading', () => {
    const html = renderToString(h(ProviderTable, { providers }));
    expect(html).toContain('<h2 id="health-providers">Providers</h2><table class="health-table" aria-labelledby="health-providers">');
    const rows = html.split('<tr>').slice(2);
    expect(rows[0]).toContain('<th scope="row">anthropic</th><td>anthropic-messages</td><td>user config</td><td class="health-ok">from the environment</td><td>default</td><td class="health-ok">closed</td>');
    expect(rows[1]).toContain('<td>/home/ada/proj</td><td class="health-bad">missing</td>');
    expect(rows[1]).toContain('open, 5 failures in a row, opened <time datetime="2026-11-27T03:10:00.000Z">');
    expect(rows[2]).toContain('<td class="health-ok">not needed</td>');
    expect(rows[2]).toContain('half open, 1 failure in a row');
  });

  it('says when no provider is configured', () => {
    expect(renderToString(h(ProviderTable, { providers: [] }))).toBe(
      '<section class="health-section" aria-labelledby="health-providers"><h2 id="health-providers">Providers</h2><p>No providers are configured.</p></section>',
    );
  });

  it('lists recent retries and fallbacks, linking the session they happened in', () => {
    const html = renderToString(
      h(RecentProviderEvents, {
        events: [
          { at: '2026-11-27T03:11:00.000Z', kind: 'fallback', provider: 'openai', model: 'openai/gpt', sessionId: 'ses_9', detail: 'fell back to anthropic/claude after 503' },
          { at: '2026-11-27T03:10:00.000Z', kind: 'breaker_opened', provider: 'openai', detail: '5 failures in a row' },
        ],
      }),
    );
    expect(html).toContain('<td>fallback</td><td>openai</td><td>openai/gpt</td><td><a href="#/session/ses_9">ses_9</a></td><td>fell back to anthropic/claude after 503</td>');
    expect(html).toContain('<td>breaker opened</td><td>openai</td><td></td><td></td><td>5 failures in a row</td>');
    expect(unnamedControls(html)).toEqual([]);
  });

  it('lists MCP servers with state, tools and last error', () => {
    const html = renderToString(
      h(McpServerTable, {
        servers: [
          { name: 'files', state: 'running', tools: 12, lastError: null },
          { name: 'tickets', sessionId: 'ses_2', state: 'failed', tools: 0, lastError: 'exited with code 1: missing TOKEN' },
        ],
      }),
    );
    expect(html).toContain('<th scope="row">files</th><td>user config</td><td class="health-ok">running</td><td>12</td><td></td>');
    expect(html).toContain('<th scope="row">tickets</th><td><a href="#/session/ses_2">ses_2</a></td><td class="health-bad">failed</td><td>0</td><td>exited with code 1: missing TOKEN</td>');
  });

  it('shows the sandbox and each path it hides', () => {
    const html = renderToString(h(SandboxSummary, { sandbox: { kind: 'bubblewrap', available: true, hidden: ['/home/ada/.ssh', '/home/ada/.aws'], detail: 'bwrap 0.11' } }));
    expect(html).toContain('<p class="health-ok">bubblewrap, available: bwrap 0.11</p>');
    expect(html).toContain('<details class="health-hidden"><summary>Hidden from commands: 2 paths</summary><ul><li><code>/home/ada/.ssh</code></li><li><code>/home/ada/.aws</code></li></ul></details>');
    const none = renderToString(h(SandboxSummary, { sandbox: { kind: 'none', available: false, hidden: [], detail: 'bwrap is not installed' } }));
    expect(none).toContain('<p class="health-bad">no sandbox, not available: bwrap is not installed</p>');
    expect(none).toContain('It hides no paths.');
  });

  it('lists config reloads, and for a rejected edit the file, JSON path and problem', () => {
    const html = renderToString(
      h(ConfigChangeTable, {
        changes: [
          { at: '2026-11-27T03:12:00.000Z', file: '/home/ada/proj/.agentd/config.json', outcome: 'rejected', path: 'model', problem: 'expected "provider/model"' },
          { at: '2026-11-27T03:00:00.000Z', file: '/home/ada/.config/agentd/config.json', outcome: 'reloaded' },
        ],
      }),
    );
    expect(html).toContain('<code>/home/ada/proj/.agentd/config.json</code></td><td class="health-bad">rejected</td><td>model: expected &quot;provider/model&quot;</td>');
    expect(html).toContain('<code>/home/ada/.config/agentd/config.json</code></td><td class="health-ok">reloaded</td><td></td>');
  });
});
