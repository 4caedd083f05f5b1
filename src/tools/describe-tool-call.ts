import type { ToolKind, ToolCallLocation } from '../../protocol/index.js';
import type { Tool } from './tool.js';

/** How a tool call is shown to clients: the same live and when a stored session is replayed. */
export interface ToolCallDescription {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/**
 * Title, kind and locations of a call to `tool` (undefined: no such tool, e.g. a client
 * tool whose client has gone). Broken arguments never throw: the call shows its name.
 */
export function describeToolCall(tool: Tool | undefined, name: string, args: Record<string, unknown>, cwd: string): ToolCallDescription {
  if (!tool) return { title: name, kind: 'other', locations: [] };
  return { title: toolTitle(tool, args), kind: tool.kind, locations: toolLocations(tool, args, cwd) };
}

/** The tool's own title for these arguments, or its name when they are too broken for one. */
export function toolTitle(tool: Tool, args: Record<string, unknown>): string {
  try {
    return tool.title(args as never);
  } catch {
    return tool.name;
  }
}

function toolLocations(tool: Tool, args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  try {
    return tool.locations?.(args as never, { cwd }) ?? [];
  } catch {
    // Arguments too broken for locations; the call fails validation when it runs.
    return [];
  }
}
