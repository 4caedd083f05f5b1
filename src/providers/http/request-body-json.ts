/**
 * Request bodies serialized with the JSON of their unchanging items reused. A long
 * session's request repeats every earlier message as it was last time; a converter that
 * hands out the same wire object for the same message (see `rememberWireItem`) lets that
 * message's JSON be made once, and each request only joins the pieces. The text is
 * byte for byte what `JSON.stringify(body)` gives (test/providers/http/request-body-json.test.ts).
 */

const itemJson = new WeakMap<object, string>();
const items = new WeakSet<object>();

/**
 * Marks a wire object as never changed after this call: its JSON is made the first time a
 * body carrying it is serialized, then reused. Whoever builds it must not change it later.
 */
export function rememberWireItem<T extends object>(item: T): T {
  items.add(item);
  return item;
}

/** `JSON.stringify(body)`, with remembered items of its top-level arrays serialized once. */
export function stringifyRequestBody(body: unknown): string {
  if (!isPlainObject(body)) return JSON.stringify(body);
  let text = '{';
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    const json = Array.isArray(value) ? arrayJson(value) : JSON.stringify(value);
    // JSON.stringify leaves out members whose value has no JSON (undefined, functions, symbols).
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
  }
  return `${text}}`;
}

function arrayJson(array: readonly unknown[]): string {
  if (typeof (array as { toJSON?: unknown }).toJSON === 'function' || !array.some((item) => typeof item === 'object' && item !== null && items.has(item))) return JSON.stringify(array);
  const parts: string[] = [];
  for (const item of array) {
    if (typeof item === 'object' && item !== null && items.has(item)) {
      let json = itemJson.get(item);
      if (json === undefined) {
        json = JSON.stringify(item);
        itemJson.set(item, json);
      }
      parts.push(json);
    } else {
      // In an array, what has no JSON is written as null.
      parts.push(JSON.stringify(item) ?? 'null');
    }
  }
  return `[${parts.join(',')}]`;
}

/** A plain object without toJSON: its members are what JSON.stringify writes. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
