import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The fenced code blocks of language `lang` in a README (path from the repository root)
 * that follow the heading `heading` and come before the next heading of its level or
 * higher: tests run the examples exactly as printed, never a copy that can drift.
 */
export function readmeCodeBlocks(file: string, heading: string, lang: string): string[] {
  const text = readFileSync(`${root}/${file}`, 'utf8');
  const start = text.split('\n').findIndex((line) => line === heading);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const lines = text.split('\n').slice(start + 1);
  // A `# comment` line inside a fenced block is not a heading.
  let fenced = false;
  const end = lines.findIndex((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level;
  });
  const section = (end < 0 ? lines : lines.slice(0, end)).join('\n');
  const blocks = [...section.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
  if (blocks.length === 0) throw new Error(`${file} has no \`\`\`${lang} block under "${heading}"`);
  return blocks;
}
