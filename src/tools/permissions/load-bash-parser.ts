import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

let loading: Promise<Language> | undefined;

/**
 * A tree-sitter parser for bash (tree-sitter-bash's grammar, run by web-tree-sitter as
 * WebAssembly: no native build). The grammar is loaded once per process; each caller
 * gets its own parser, which the caller must `delete()` when done.
 */
export async function loadBashParser(): Promise<Parser> {
  loading ??= Parser.init().then(() => Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  const language = await loading;
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
