/** Arguments of a finished tool call, parsed once from the text the vendor streamed. */
export interface ParsedToolArguments {
  args: Record<string, unknown>;
  /** Why `args` is `{}` although the model sent something; the loop answers it to the model. */
  argsError?: string;
}

/**
 * The one reading of a tool call's arguments text, for every protocol, so a bad call
 * fails the same way whichever vendor sent it. Empty text is a call without arguments
 * (`{}`); a JSON string holding the object (some OpenAI-compatible servers double-encode)
 * is read through; anything else that is not a JSON object — usually arguments cut off by
 * the output limit — yields `{}` and an `argsError` naming the tool and quoting the text.
 */
export function parseToolArguments(text: string, toolName: string): ParsedToolArguments {
  if (text.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    // The engine's parse message is left out: it differs between Node versions.
    return { args: {}, argsError: `the arguments of ${toolName} are not valid JSON (cut off or malformed): ${clip(text)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { args: {}, argsError: `the arguments of ${toolName} are JSON but not an object: ${clip(text)}` };
  }
  return { args: value as Record<string, unknown> };
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
