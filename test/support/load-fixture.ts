import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssistantMessage } from '../../src/providers/message.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';

/**
 * The `<scenario>.expected.json` beside a transcript. Errors in `events` are plain
 * objects (`{ kind, message?, status?, midStream?, ... }`); compare them with
 * `toComparableEvents`, which turns ProviderError instances into the same shape.
 */
export interface FixtureExpectation {
  /** Where the transcript's shape comes from (the vendor's API reference), for readers. */
  source?: string;
  /**
   * The model id the request names, where the model decides how the stream is read (the
   * reasoning tags of an open model on openai-chat); the protocol test's own model when absent.
   */
  model?: string;
  /** HTTP status the replay server answers with; 200 when absent. */
  status?: number;
  /** Response headers; `content-type: text/event-stream` when absent. */
  headers?: Record<string, string>;
  /** The exact unified events expected, in order (errors as plain objects). */
  events: unknown[];
  /** The accumulated final assistant message, when the fixture checks it. */
  message?: AssistantMessage;
}

/** A transcript's raw bytes and its expectation. */
export interface Fixture {
  bytes: Uint8Array;
  expected: FixtureExpectation;
}

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Transcript extensions: SSE text, or AWS event-stream binary frames (Bedrock). */
const transcriptExtensions = ['.sse', '.eventstream'];

/** Read `test/fixtures/<protocol>/<scenario>.sse` (or `.eventstream`) and `<scenario>.expected.json`. */
export function loadFixture(protocol: string, scenario: string): Fixture {
  const base = path.join(fixturesDir, protocol, scenario);
  const extension = transcriptExtensions.find((ext) => fs.existsSync(`${base}${ext}`)) ?? '.sse';
  const bytes = new Uint8Array(fs.readFileSync(`${base}${extension}`));
  const expected = JSON.parse(fs.readFileSync(`${base}.expected.json`, 'utf8')) as FixtureExpectation;
  if (!Array.isArray(expected.events)) {
    throw new Error(`${base}.expected.json: "events" must be an array of StreamEvent objects`);
  }
  return { bytes, expected };
}

/** Every scenario name in `test/fixtures/<protocol>/` (files ending in `.sse` or `.eventstream`). */
export function listFixtures(protocol: string): string[] {
  return fs
    .readdirSync(path.join(fixturesDir, protocol))
    .flatMap((name) => transcriptExtensions.filter((ext) => name.endsWith(ext)).map((ext) => name.slice(0, -ext.length)))
    .sort();
}

export type { StreamEvent };
