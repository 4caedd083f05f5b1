import type { ExportSessionResponse, SetSessionConfigOptionResponse } from '../../../../protocol/index.js';
import type { AgentdConnection } from '../../../typescript/src/browser.js';

/** What the session view's controls send; each names the session it acts on. */
export interface SessionActions {
  prompt(text: string): Promise<unknown>;
  steer(text: string): Promise<unknown>;
  followUp(text: string): Promise<unknown>;
  abort(): Promise<unknown>;
  setMode(modeId: string): Promise<unknown>;
  setConfigOption(configId: string, value: string): Promise<SetSessionConfigOptionResponse>;
  exportAs(format: 'markdown' | 'json'): Promise<ExportSessionResponse>;
}

const text = (value: string) => [{ type: 'text' as const, text: value }];

export function sessionActions(client: AgentdConnection, sessionId: string): SessionActions {
  return {
    prompt: (value) => client.request('session/prompt', { sessionId, prompt: text(value) }),
    steer: (value) => client.request('session/steer', { sessionId, prompt: text(value) }),
    followUp: (value) => client.request('session/followUp', { sessionId, prompt: text(value) }),
    abort: () => client.request('session/abort', { sessionId }),
    setMode: (modeId) => client.request('session/set_mode', { sessionId, modeId }),
    setConfigOption: (configId, value) => client.request('session/set_config_option', { sessionId, configId, value }),
    exportAs: (format) => client.request('session/export', { sessionId, format }),
  };
}

/** Offers text as a file download (a Blob URL on a temporary link). */
export function download(fileName: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
