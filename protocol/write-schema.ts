import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot, generateProtocolFiles } from './generate-protocol-files.js';

/*
 * `npm run protocol`: regenerate protocol/schema.json and protocol/PROTOCOL.md from the
 * zod schemas and the method table. Both files are committed; a test fails when they
 * are stale.
 */
const root = findPackageRoot(import.meta.url);
for (const file of generateProtocolFiles(root)) {
  writeFileSync(join(root, file.path), file.content);
  process.stderr.write(`wrote ${file.path} (${file.content.length} bytes)\n`);
}
