import path from 'node:path';
import { FileStateTracker } from '../../src/tools/files/file-state-tracker.js';
import { allowAllGate } from '../../src/tools/permission-gate.js';
import type { SandboxInfo } from '../../src/tools/sandbox/detect-sandbox.js';
import type { ToolContext } from '../../src/tools/tool.js';

/** A ToolContext on a real directory, as the loop builds one (test/tools/tool-test-context.ts does the same for tests). */
export function benchContext(cwd: string, sandbox: SandboxInfo = { mode: 'none' }): ToolContext {
  return {
    cwd,
    additionalDirectories: [],
    sessionId: 'bench',
    toolCallId: 'bench-call',
    signal: new AbortController().signal,
    onProgress: () => undefined,
    permission: allowAllGate,
    fileState: new FileStateTracker(),
    dataDir: path.join(cwd, '.agentd-data'),
    sandbox,
  };
}
