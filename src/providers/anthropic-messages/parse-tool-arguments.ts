/** Arguments of a finished tool call: parsed once, from the joined JSON deltas. */
export interface ParsedToolArguments {
  args: Record<string, unknown>;
  /** Why `args` is `{}` although the model sent something. */
  argsError?: string;
}

/**
 * Parse the joined `input_json_delta` text of one tool_use block. Empty input means a call
 * without arguments (`{}`); text that is not a JSON object (usually cut off by max_tokens)
 * yields `{}` plus an `argsError` the loop can report back to the model.
 */
export function parseToolArguments(json: string): ParsedToolArguments {
  if (json.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { args: {}, argsError: `the tool call arguments are not valid JSON (often cut off by max_tokens): ${preview(json)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { args: {}, argsError: `the tool call arguments are JSON but not an object: ${preview(json)}` };
  }
  return { args: value as Record<string, unknown> };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
