import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AgentdConfigSchema } from '../../../src/config/config-schema.js';
import { createModelCatalog } from '../../../src/providers/catalog/model-catalog.js';
import { bedrockSpec } from '../../../src/providers/registry/bedrock-spec.js';
import { readmeCodeBlocks } from '../../support/readme-code-blocks.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-aws-readme-'));
  fs.mkdirSync(path.join(home, '.aws'));
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[work]\naws_access_key_id = AKIAWORKEXAMPLE\naws_secret_access_key = workSecret\n');
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

it('the README\'s Bedrock example is a valid config that reaches the region\'s endpoint with the profile\'s keys, and its model is in the catalog', () => {
  const [block] = readmeCodeBlocks('README.md', '### Amazon Bedrock', 'json');
  const config = AgentdConfigSchema.parse(JSON.parse(block!));
  const [provider, ...rest] = config.model!.split('/');
  const spec = bedrockSpec(provider!, rest.join('/'), config.providers?.[provider!], { HOME: home });
  expect(spec.baseUrl).toBe('https://bedrock-runtime.us-east-1.amazonaws.com');
  expect(spec.bedrock?.identity()).toMatchObject({ region: 'us-east-1', credentials: { kind: 'sigv4', accessKeyId: 'AKIAWORKEXAMPLE' } });
  expect(createModelCatalog().lookup(config.model!)).toMatchObject({ known: true, contextWindow: 200_000, inputPrice: 3, outputPrice: 15 });
  // The same model through the EU inference profile costs more (models.dev, providers/amazon-bedrock).
  expect(createModelCatalog().lookup('bedrock/eu.anthropic.claude-sonnet-4-5-20250929-v1:0')).toMatchObject({ known: true, inputPrice: 3.3, outputPrice: 16.5 });
});
