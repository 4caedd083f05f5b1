import type { ToolResult } from './tool.js';

/**
 * An expected failure of a tool call (bad path, file not read first, denied permission).
 * Its message is written for the model: what went wrong and what to do instead.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** A plain text result. */
export function textResult(text: string, details?: ToolResult['details']): ToolResult {
  return details ? { content: [{ type: 'text', text }], details } : { content: [{ type: 'text', text }] };
}

/**
 * Turns anything thrown inside a tool into an error result the model can act on.
 * Unexpected errors keep their message (e.g. `EACCES: permission denied, open '…'`).
 */
export function errorResult(error: unknown): ToolResult {
  const text =
    error instanceof ToolError
      ? error.message
      : error instanceof Error && error.name === 'AbortError'
        ? 'The tool call was aborted.'
        : `The tool failed: ${error instanceof Error ? error.message : String(error)}`;
  return { content: [{ type: 'text', text }], isError: true };
}
