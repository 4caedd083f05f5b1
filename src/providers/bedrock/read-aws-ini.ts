import fs from 'node:fs';

/** The sections of an AWS shared config or credentials file, by their header text (`default`, `profile work`). */
export type AwsIniSections = Map<string, Record<string, string>>;

/**
 * Read an AWS shared file (https://docs.aws.amazon.com/sdkref/latest/guide/file-format.html):
 * `[section]` headers, `key = value` lines, `#` and `;` comments. Nested values (indented
 * lines under `s3 =`) belong to settings agentd does not read and are skipped. A missing
 * file is an empty one.
 */
export function readAwsIni(file: string): AwsIniSections {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const sections: AwsIniSections = new Map();
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s/.test(raw) && current !== undefined) continue;
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([^\]]+?)\s*\]/.exec(line);
    if (header !== null) {
      const name = header[1]!.replace(/\s+/g, ' ');
      current = sections.get(name) ?? {};
      sections.set(name, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0 || current === undefined) continue;
    current[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  return sections;
}
