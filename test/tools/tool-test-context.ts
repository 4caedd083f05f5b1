import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileStateTracker } from '../../src/tools/files/file-state-tracker.js';
import { allowAllGate, type PermissionGate, type PermissionRequest } from '../../src/tools/permission-gate.js';
import type { ToolContext, ToolProgress, ToolResult } from '../../src/tools/tool.js';

/** A real temporary directory (symlinks resolved), removed by `cleanup`. */
export interface TempDir {
  dir: string;
  cleanup(): void;
}

export function makeTempDir(prefix = 'agentd-'): TempDir {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `name` (folders made as needed) under `dir`, with `mtime` as its modification time when given. */
export function writeFileAt(dir: string, name: string, content: string, mtime?: Date): void {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mtime) fs.utimesSync(file, mtime, mtime);
}

/** A gate that records every question and answers with `answer`. */
export function recordingGate(answer: 'allow' | 'deny'): PermissionGate & { requests: PermissionRequest[] } {
  const requests: PermissionRequest[] = [];
  return {
    requests,
    check(request) {
      requests.push(request);
      return Promise.resolve(answer);
    },
  };
}

/** A ToolContext on a real workspace, with progress updates collected. */
export function makeContext(
  cwd: string,
  overrides: Partial<ToolContext> = {},
): ToolContext & { progress: ToolProgress[] } {
  const progress: ToolProgress[] = [];
  return {
    cwd,
    additionalDirectories: [],
    sessionId: 'session-test',
    toolCallId: 'call-1',
    signal: new AbortController().signal,
    onProgress: (update) => progress.push(update),
    permission: allowAllGate,
    fileState: new FileStateTracker(),
    dataDir: path.join(cwd, '.agentd-data'),
    sandbox: { mode: 'none' },
    progress,
    ...overrides,
  };
}

/** The text of a result's text blocks, joined. */
export function textOf(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
