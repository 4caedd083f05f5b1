import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderProtocolMarkdown } from './render-protocol-md.js';
import { buildSchemaDocument } from './to-json-schema.js';

/** A generated file: path relative to the package root, and its exact content. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/**
 * The package root, found by walking up from a module URL to the first package.json. The
 * same code then works from protocol/ (tests, run from source) and dist/protocol/ (npm run protocol).
 */
export function findPackageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}

/** protocol/schema.json and protocol/PROTOCOL.md as they should be on disk. */
export function generateProtocolFiles(packageRoot: string): GeneratedFile[] {
  const document = buildSchemaDocument();
  const intro = readFileSync(join(packageRoot, 'protocol', 'PROTOCOL.intro.md'), 'utf8');
  return [
    { path: 'protocol/schema.json', content: `${JSON.stringify(document, null, 2)}\n` },
    { path: 'protocol/PROTOCOL.md', content: renderProtocolMarkdown(intro, document) },
  ];
}
