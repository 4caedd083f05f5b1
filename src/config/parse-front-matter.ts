import { loadYaml } from './load-yaml.js';

/** A Markdown file split into its YAML front matter and its body. */
export interface FrontMatterDocument {
  /** The front matter as a plain object; `{}` when the file has none or it is empty. */
  fields: Record<string, unknown>;
  /** The Markdown after the front matter, trimmed. */
  body: string;
}

/** A front matter that is not a YAML mapping; `line` is 1-based in the whole file. */
export class FrontMatterError extends Error {
  override readonly name = 'FrontMatterError';
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/;

/**
 * Splits `---` YAML front matter `---` from the body, the convention of Jekyll, Claude
 * Code agents and SKILL.md files. The YAML is parsed by the `yaml` package with its
 * default core schema, which builds plain data and never runs code. A file without
 * front matter is all body.
 */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = FRONT_MATTER.exec(normalised);
  if (!match) return { fields: {}, body: normalised.trim() };
  let front: unknown;
  try {
    // logLevel 'error': unknown tags become plain strings without a process warning.
    front = loadYaml().parse(match[1] ?? '', { logLevel: 'error' });
  } catch (error) {
    if (error instanceof loadYaml().YAMLParseError) {
      const position = error.linePos?.[0];
      // The YAML starts on line 2 of the file, after the opening `---`.
      const line = position !== undefined ? position.line + 1 : undefined;
      // yaml's own position is relative to the front matter; the file position replaces it.
      const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new FrontMatterError(`invalid YAML front matter: ${reason}`, line, position?.col);
    }
    throw error;
  }
  if (front === null || front === undefined) return { fields: {}, body: normalised.slice(match[0].length).trim() };
  if (typeof front !== 'object' || Array.isArray(front)) {
    throw new FrontMatterError('the front matter must be a YAML mapping of "key: value" lines', 2);
  }
  return { fields: front as Record<string, unknown>, body: normalised.slice(match[0].length).trim() };
}
