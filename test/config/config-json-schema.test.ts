import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { findPackageRoot } from '../../protocol/generate-protocol-files.js';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from '../../src/config/config-json-schema.js';
import { loadConfig } from '../../src/config/load-config.js';

const root = findPackageRoot(import.meta.url);
const onDisk = readFileSync(join(root, CONFIG_SCHEMA_FILE), 'utf8');
const schema = JSON.parse(onDisk) as Record<string, unknown>;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

/** The config example under the README's "Configuration" heading, exactly as printed. */
function readmeConfigExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const match = /```json\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README has no json block under ## Configuration');
  return match[1]!;
}

describe('config.schema.json', () => {
  it('is generated from the zod config schema (run `npm run config-schema` if this fails)', () => {
    expect(onDisk === configJsonSchemaText()).toBe(true);
  });

  it("documents the fields of providers.<id>.models", () => {
    const models = JSON.stringify((schema.properties as Record<string, unknown>).providers);
    for (const field of ['contextWindow', 'maxOutputTokens', 'inputPrice', 'outputPrice', 'cacheReadPrice', 'cacheWritePrice', 'tools', 'images', 'thinking']) {
      expect(models).toMatch(new RegExp(`"${field}":\\{[^}]*"description":"[^"]+"`));
    }
  });

  it("the README's config example names it in \"$schema\", is accepted by the loader and validates against it", () => {
    const text = readmeConfigExample();
    const json = JSON.parse(text) as { $schema: string };
    expect(json.$schema.endsWith(`/${CONFIG_SCHEMA_FILE}`)).toBe(true);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const home = mkdtempSync(join(tmpdir(), 'agentd-schema-'));
    try {
      const file = join(home, 'config.json');
      writeFileSync(file, text);
      const loaded = loadConfig({ cwd: home, configFile: file, paths: resolveAgentdPaths({ AGENTD_HOME: home }) });
      expect(loaded.config.model).toBe('local/qwen3:8b');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('rejects what the loader rejects: an unknown key, a misspelt model field', () => {
    expect(validate({ modle: 'a/b' })).toBe(false);
    expect(validate({ providers: { local: { models: { tiny: { contextWindw: 8192 } } } } })).toBe(false);
    expect(validate({ providers: { local: { models: { tiny: { contextWindow: 8192 } } } } })).toBe(true);
  });
});
