import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMethodName } from '../../protocol/index.js';

const root = join(import.meta.dirname, '..', '..');

/** A method name with a slash (`session/prompt`, `$/cancel_request`), as each language writes one. */
const SLASHED = String.raw`(\$|[A-Za-z_]+)/[A-Za-z_]+`;

/**
 * The clients that do not share the TypeScript types: their sources, and how a method name
 * appears in them. `initialize` is the one method without a slash, matched where it is sent.
 */
const CLIENTS = [
  {
    name: 'python',
    folder: 'clients/python/src',
    extension: '.py',
    patterns: [new RegExp(`["'](${SLASHED})["']`, 'g'), /["'](initialize)["']/g],
  },
  {
    name: 'neovim',
    folder: 'clients/neovim',
    extension: '.lua',
    patterns: [new RegExp(`["'](${SLASHED})["']`, 'g'), /["'](initialize)["']/g],
  },
  {
    // jsonrpc.el names methods by keyword (`:session/new`); a dispatcher matches quoted symbols
    // (`'session/update`). Docstrings' `session/update' quotes are documentation, not sends.
    name: 'emacs',
    folder: 'clients/emacs',
    extension: '.el',
    patterns: [new RegExp(`(?<=[\\s(])[:'](${SLASHED})(?![\\w/'])`, 'g'), /(?<=[\s(]):(initialize)\b/g],
  },
];

function sourceFiles(folder: string, extension: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension) && !file.split('/').some((part) => part === 'tests' || part === 'test'))
    .map((file) => join(root, folder, file));
}

/** Every method name a client's sources send or handle, with the file it is in. */
function methodNamesIn(client: (typeof CLIENTS)[number]): Array<{ file: string; name: string }> {
  const found: Array<{ file: string; name: string }> = [];
  for (const file of sourceFiles(client.folder, client.extension)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of client.patterns) {
      for (const match of text.matchAll(pattern)) found.push({ file: relative(root, file), name: match[1]! });
    }
  }
  return found;
}

describe('the Python, Neovim and Emacs clients use only methods of the protocol table', () => {
  for (const client of CLIENTS) {
    it(`${client.name}: every JSON-RPC method name in ${client.folder} is in the method table`, () => {
      const found = methodNamesIn(client);
      // No names at all means the scan no longer matches how the client is written.
      expect(found.length, `no method names found in ${client.folder}: the scan's patterns no longer match the client`).toBeGreaterThan(0);
      expect(found.map(({ name }) => name)).toContain('session/prompt');
      const unknown = found.filter(({ name }) => !isMethodName(name)).map(({ file, name }) => `${file}: ${name}`);
      expect(unknown, 'method names not in protocol/methods.ts').toEqual([]);
    });
  }
});
