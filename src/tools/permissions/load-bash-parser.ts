import { createRequire } from 'node:module';
import type { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

let loading: Promise<{ language: Language; Parser: typeof Parser }> | undefined;

/**
 * A tree-sitter parser for bash (tree-sitter-bash's grammar, run by web-tree-sitter as
 * WebAssembly: no native build). The grammar is loaded once per process; each caller
 * gets its own parser, which the caller must `delete()` when done.
 */
export async function loadBashParser(): Promise<Parser> {
  // The runtime is imported here, on the first bash command to check, not with the daemon.
  loading ??= import('web-tree-sitter').then(async ({ Language, Parser }) => {
    await Parser.init();
    return { language: await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')), Parser };
  });
  const { language, Parser } = await loading;
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
