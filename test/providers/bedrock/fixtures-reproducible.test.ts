import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/bedrock/build-fixtures.mjs');

it('the committed Bedrock transcripts are exactly what build-fixtures.mjs writes', () => {
  // Throws (exit 1, naming the file) when a committed transcript differs.
  expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
});
