/**
 * Request bodies encoded with the bytes of their unchanging items reused. A long session's
 * request repeats every earlier message as it was last time; a converter that hands out the
 * same wire object for the same message (see `rememberWireItem`) lets that message's JSON be
 * made and UTF-8-encoded once, and each request only copies the pieces into one buffer. Joining
 * them as text instead left a rope of thousands of strings that the encoding to bytes had to
 * flatten and walk again: that took longer than JSON.stringify of the whole body. The bytes are
 * exactly those of `JSON.stringify(body)` (test/providers/http/request-body-json.test.ts).
 * The start an array shares with the last one of its series (see EncodedRun) is copied whole.
 */
import { BodyPieces, type EncodedBody } from './body-pieces.js';
import { EncodedRun } from './encoded-run.js';

/**
 * Remembered items: their JSON's bytes once a body carrying them was encoded, `null` before.
 * Keyed weakly: a dropped session's wire objects take their bytes with them.
 */
const itemBytes = new WeakMap<object, Buffer | null>();

/**
 * Marks a wire object as never changed after this call: its JSON is made the first time a
 * body carrying it is encoded, then reused. Whoever builds it must not change it later.
 */
export function rememberWireItem<T extends object>(item: T): T {
  if (!itemBytes.has(item)) itemBytes.set(item, null);
  return item;
}

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, in chunks, with remembered items of its top-level
 * arrays encoded once. Release the body once the socket has taken it (see EncodedBody).
 */
export function encodeRequestBody(body: unknown): EncodedBody {
  const pieces = new BodyPieces();
  if (!isPlainObject(body)) {
    const json = JSON.stringify(body) as string | undefined;
    if (json === undefined) throw new TypeError('a request body must have JSON: undefined, a function or a symbol has none');
    pieces.text(json);
    return pieces.finish();
  }
  pieces.text('{');
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    const firstRemembered = Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function' ? value.findIndex(isRemembered) : -1;
    if (firstRemembered >= 0) {
      pieces.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
      addArray(pieces, value as unknown[], firstRemembered);
    } else {
      const json = JSON.stringify(value);
      // JSON.stringify leaves out members whose value has no JSON (undefined, functions, symbols).
      if (json === undefined) continue;
      pieces.text(`${first ? '' : ','}${JSON.stringify(key)}:${json}`);
    }
    first = false;
  }
  pieces.text('}');
  return pieces.finish();
}

/**
 * Per series of arrays, keyed by the first remembered item (a session's first message, weakly:
 * a dropped session's run goes with it), the encoded run of remembered items it last carried.
 */
const runs = new WeakMap<object, EncodedRun>();

function addArray(pieces: BodyPieces, array: readonly unknown[], firstRemembered: number): void {
  // Text between remembered items (the bracket, items not remembered) is gathered and encoded
  // as one piece; a comma between two remembered items is written straight into the body.
  let text = '[';
  for (let i = 0; i < firstRemembered; i++) text += `${i > 0 ? ',' : ''}${JSON.stringify(array[i]) ?? 'null'}`;
  const key = array[firstRemembered] as object;
  let run = runs.get(key);
  if (run === undefined) {
    run = new EncodedRun();
    runs.set(key, run);
  }
  // A run serves one array of a body: another would rewrite bytes the first still points at.
  const usable = pieces.claim(run);
  const shared = usable ? run.shared(array, firstRemembered) : 0;
  if (shared > 0) {
    pieces.text(firstRemembered > 0 ? `${text},` : text);
    pieces.bytes(run.start(shared));
    text = '';
  }
  // Items after the shared start that continue the run of remembered ones: the run's new end.
  const added: Array<{ item: unknown; bytes: Buffer }> = [];
  let inRun = usable;
  for (let i = firstRemembered + shared; i < array.length; i++) {
    const item = array[i];
    let bytes = typeof item === 'object' && item !== null ? itemBytes.get(item) : undefined;
    if (bytes === undefined) {
      inRun = false;
      // In an array, what has no JSON is written as null.
      text += `${i > 0 ? ',' : ''}${JSON.stringify(item) ?? 'null'}`;
      continue;
    }
    if (text === '') pieces.comma();
    else pieces.text(i > 0 ? `${text},` : text);
    text = '';
    if (bytes === null) {
      // An item whose toJSON gives nothing is written as null too.
      bytes = Buffer.from(JSON.stringify(item) ?? 'null');
      itemBytes.set(item as object, bytes);
    }
    pieces.bytes(bytes);
    if (inRun) added.push({ item, bytes });
  }
  if (usable) run.replace(shared, added);
  pieces.text(`${text}]`);
}

function isRemembered(item: unknown): boolean {
  return typeof item === 'object' && item !== null && itemBytes.has(item);
}

/** A plain object without toJSON: its members are what JSON.stringify writes. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
