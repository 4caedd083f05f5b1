import { describe, expect, it } from 'vitest';
import {
  ErrorCodes,
  errorCodeName,
  extensionFeatures,
  isMethodName,
  methodsByName,
  methodTable,
  namedSchemas,
} from '../../protocol/index.js';

/** Every method the protocol promises (README, protocol/PROTOCOL.md), with its direction. */
const REQUIRED: Record<string, 'client-to-daemon' | 'daemon-to-client' | 'both'> = {
  initialize: 'client-to-daemon',
  'session/new': 'client-to-daemon',
  'session/load': 'client-to-daemon',
  'session/resume': 'client-to-daemon',
  'session/list': 'client-to-daemon',
  'session/close': 'client-to-daemon',
  'session/delete': 'client-to-daemon',
  'session/prompt': 'client-to-daemon',
  'session/cancel': 'client-to-daemon',
  'session/abort': 'client-to-daemon',
  'session/steer': 'client-to-daemon',
  'session/followUp': 'client-to-daemon',
  'session/compact': 'client-to-daemon',
  'session/set_mode': 'client-to-daemon',
  'session/set_config_option': 'client-to-daemon',
  'tools/register': 'client-to-daemon',
  'tools/unregister': 'client-to-daemon',
  'tools/list': 'client-to-daemon',
  'hooks/register': 'client-to-daemon',
  'schedules/add': 'client-to-daemon',
  'schedules/list': 'client-to-daemon',
  'schedules/update': 'client-to-daemon',
  'schedules/remove': 'client-to-daemon',
  'schedules/run': 'client-to-daemon',
  'schedules/history': 'client-to-daemon',
  'daemon/status': 'client-to-daemon',
  'dashboard/login': 'client-to-daemon',
  'session/info': 'client-to-daemon',
  'daemon/sessions': 'client-to-daemon',
  'daemon/costs': 'client-to-daemon',
  'session/export': 'client-to-daemon',
  'daemon/health': 'client-to-daemon',
  'daemon/cluster': 'client-to-daemon',
  'session/update': 'daemon-to-client',
  'session/request_permission': 'daemon-to-client',
  'elicitation/create': 'daemon-to-client',
  'tools/call': 'daemon-to-client',
  'hooks/beforeToolCall': 'daemon-to-client',
  'hooks/afterToolCall': 'daemon-to-client',
  'agentd/event': 'daemon-to-client',
  'agentd/daemonEvent': 'daemon-to-client',
  '$/cancel_request': 'both',
  '$/cancelRequest': 'both',
};

describe('method table', () => {
  it('has exactly the required methods, each once, with the right direction', () => {
    const names = methodTable.map((d) => d.method);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(REQUIRED).sort());
    for (const d of methodTable) expect([d.method, d.direction]).toEqual([d.method, REQUIRED[d.method]]);
  });

  it('gives every method a distinct client method name', () => {
    const clientNames = methodTable.map((d) => d.clientMethod);
    expect(new Set(clientNames).size).toBe(clientNames.length);
  });

  it('looks methods up by name', () => {
    expect(methodsByName.size).toBe(methodTable.length);
    expect(methodsByName.get('session/steer')?.clientMethod).toBe('steer');
    expect(isMethodName('session/prompt')).toBe(true);
    expect(isMethodName('session/Prompt')).toBe(false);
  });

  it('gives notifications no result and requests a result schema', () => {
    for (const d of methodTable) {
      if (d.kind === 'notification') {
        expect(d.result, d.method).toBeUndefined();
        expect(d.example, d.method).not.toHaveProperty('result');
      } else {
        expect(d.result, d.method).toBeDefined();
        expect(d.example, d.method).toHaveProperty('result');
      }
    }
  });

  it('lists only named error codes', () => {
    const known = new Set<number>(Object.values(ErrorCodes));
    for (const d of methodTable) for (const code of d.errors) expect(known.has(code), `${d.method} ${code}`).toBe(true);
    expect(errorCodeName(-32010)).toBe('SessionBusy');
    expect(errorCodeName(-1)).toBeUndefined();
  });

  it('uses named (exported) schemas for every params and result', () => {
    const named = new Set(namedSchemas().values());
    for (const d of methodTable) {
      expect(named.has(d.params), `${d.method} params`).toBe(true);
      if (d.result !== undefined) expect(named.has(d.result), `${d.method} result`).toBe(true);
    }
  });

  it('derives the extension features from the non-ACP methods', () => {
    expect(extensionFeatures()).toEqual(['steering', 'tools', 'hooks', 'schedules', 'daemon', 'dashboard', 'events', 'cancellation']);
    const initialize = methodsByName.get('initialize');
    const example = initialize?.example.result as { _meta: { agentd: { features: string[] } } };
    expect(example._meta.agentd.features).toEqual(extensionFeatures());
  });
});

describe('examples', () => {
  for (const d of methodTable) {
    it(`${d.method}: example params parse with its params schema`, () => {
      const parsed = d.params.safeParse(d.example.params);
      expect(parsed.error?.issues ?? []).toEqual([]);
    });
    if (d.result !== undefined) {
      const result = d.result;
      it(`${d.method}: example result parses with its result schema`, () => {
        const parsed = result.safeParse(d.example.result);
        expect(parsed.error?.issues ?? []).toEqual([]);
      });
    }
  }
});
