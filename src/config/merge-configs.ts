type JsonObject = Record<string, unknown>;

/**
 * Lays `override` (the project file) over `base` (the user file): objects merge key by
 * key at every depth; arrays and scalars are replaced whole. An MCP server entry is
 * replaced whole too, because merging a local `{command}` with a remote `{url}` of the
 * same name would make an entry that is neither.
 */
export function mergeConfigs(base: JsonObject, override: JsonObject): JsonObject {
  return mergeAt(base, override, []);
}

function mergeAt(base: JsonObject, override: JsonObject, path: readonly string[]): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    const childPath = [...path, key];
    out[key] =
      isPlainObject(current) && isPlainObject(value) && !isWholeValue(childPath)
        ? mergeAt(current, value, childPath)
        : value;
  }
  return out;
}

function isWholeValue(path: readonly string[]): boolean {
  return path.length === 2 && path[0] === 'mcpServers';
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
