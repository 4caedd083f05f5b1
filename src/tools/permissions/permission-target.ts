import { expandHome } from '../access/path-confinement.js';

/** The argument of a call that permission rules match: what the call is about. */
export type PermissionTarget =
  | { kind: 'command'; value: string }
  | { kind: 'path'; value: string }
  | { kind: 'url'; value: string }
  | { kind: 'name'; value: string };

const PATH_TOOLS = new Set(['read', 'write', 'edit', 'ls', 'glob', 'grep']);

/**
 * The primary argument of a built-in tool call: bash's command, the file tools' path
 * (the working directory when omitted), web_fetch's URL, skill's name. Other tools
 * (client, MCP) have none, so only a bare `tool` rule matches them.
 */
export function permissionTarget(tool: string, args: Record<string, unknown>): PermissionTarget | undefined {
  const text = (key: string): string | undefined => (typeof args[key] === 'string' ? args[key] : undefined);
  if (tool === 'bash') {
    const command = text('command');
    return command === undefined ? undefined : { kind: 'command', value: command };
  }
  // `~` is expanded as the tools expand it, so rules and the workspace check see the real path.
  if (PATH_TOOLS.has(tool)) return { kind: 'path', value: expandHome(text('path') ?? '.') };
  if (tool === 'web_fetch') {
    const url = text('url');
    return url === undefined ? undefined : { kind: 'url', value: url };
  }
  if (tool === 'skill') {
    const name = text('name');
    return name === undefined ? undefined : { kind: 'name', value: name };
  }
  return undefined;
}
