import { methodsByName } from '../../protocol/index.js';
import { AgentdConfigSchema } from '../config/config-schema.js';
import { readSessionMeta } from '../store/session-meta.js';
import { createBuiltinTools } from '../tools/create-builtin-tools.js';
import { toolJsonSchema } from '../tools/tool-json-schema.js';

/**
 * Run while the start-up snapshot is built (src/cli/serve-snapshot.ts), never at run time:
 * validates a config and the first requests an editor sends, as a start does. zod builds an
 * object schema's fast path (`new Function`) on its first parse, and V8 compiles a function
 * on its first call; what runs here is kept compiled in the snapshot, so a start from it
 * does neither again before `initialize` and `session/new` are answered. What it computes
 * and keeps derives from the code alone (a schema's conversion, cached by that schema).
 * Pure: nothing reads the environment, a file or the clock. Returns whether every sample was
 * valid (a refused one would warm the error path instead of the one a start takes).
 */
export function warmUpForSnapshot(): boolean {
  const configs = [
    {},
    { model: 'local/model', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'key' } }, server: { idleExitMs: 1000 } },
  ];
  const requests: Array<[string, unknown]> = [
    ['initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } }],
    ['session/new', { cwd: '/', mcpServers: [] }],
    ['session/prompt', { sessionId: '00000000-0000-0000-0000-000000000000', prompt: [{ type: 'text', text: 'warm-up' }] }],
  ];
  let valid = true;
  for (const config of configs) valid = AgentdConfigSchema.safeParse(config).success && valid;
  for (const [method, params] of requests) valid = methodsByName.get(method)?.params.safeParse(params, { reportInput: true }).success === true && valid;
  // A new session's row, read back before session/new is answered: its meta is empty.
  valid = Object.keys(readSessionMeta({})).length === 0 && valid;
  // The built-in tools' JSON Schemas, which depend on nothing but their modules' schemas: made
  // here, they are in the snapshot's cache, and a start does not convert them in the background.
  for (const tool of createBuiltinTools()) valid = typeof toolJsonSchema(tool).type === 'string' && valid;
  return valid;
}
