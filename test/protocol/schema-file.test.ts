import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { findPackageRoot, generateProtocolFiles } from '../../protocol/generate-protocol-files.js';
import { descriptorToJsonSchema, methodTable, type SchemaDocument } from '../../protocol/index.js';

const root = findPackageRoot(import.meta.url);
const generated = generateProtocolFiles(root);

describe('generated protocol files', () => {
  for (const file of generated) {
    it(`${file.path} is up to date (run \`npm run protocol\` if this fails)`, () => {
      const onDisk = readFileSync(join(root, file.path), 'utf8');
      expect(onDisk === file.content).toBe(true);
    });
  }

  const document = JSON.parse(generated[0]?.content ?? '{}') as SchemaDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(document, 'agentd');

  it('lists every method of the table with resolvable params and result', () => {
    expect(document.methods.map((m) => m.method)).toEqual(methodTable.map((d) => d.method));
    for (const m of document.methods) {
      expect(ajv.getSchema(`agentd${m.params.$ref}`), m.params.$ref).toBeDefined();
      if (m.result !== undefined) expect(ajv.getSchema(`agentd${m.result.$ref}`), m.result.$ref).toBeDefined();
    }
  });

  it('validates every example against the generated JSON Schema too', () => {
    for (const m of document.methods) {
      const params = ajv.getSchema(`agentd${m.params.$ref}`);
      expect(params?.(m.example.params), `${m.method} params: ${ajv.errorsText(params?.errors)}`).toBe(true);
      if (m.result === undefined) continue;
      const result = ajv.getSchema(`agentd${m.result.$ref}`);
      expect(result?.(m.example.result), `${m.method} result: ${ajv.errorsText(result?.errors)}`).toBe(true);
    }
  });

  it('keeps closed agentd types closed and open ACP types open in JSON Schema', () => {
    const abort = ajv.getSchema('agentd#/$defs/AbortSessionRequest');
    expect(abort?.({ sessionId: 's', bogus: 1 })).toBe(false);
    const prompt = ajv.getSchema('agentd#/$defs/PromptRequest');
    expect(prompt?.({ sessionId: 's', prompt: [], newerField: 1 })).toBe(true);
    expect(prompt?.({ sessionId: 's', prompt: [{ type: 'txt' }] })).toBe(false);
  });

  it('produces self-contained per-method schemas', () => {
    const steer = methodTable.find((d) => d.method === 'session/steer');
    if (steer === undefined) throw new Error('session/steer missing from the table');
    const { params, result } = descriptorToJsonSchema(steer);
    expect(JSON.stringify(params)).not.toContain('#/$defs/ContentBlock"');
    const validate = new Ajv2020({ strict: false }).compile(params);
    expect(validate({ sessionId: 's', prompt: [{ type: 'text', text: 'hi' }], interrupt: true })).toBe(true);
    expect(validate({ sessionId: 's', prompt: [{ type: 'text' }] })).toBe(false);
    expect(result?.required).toEqual(['queued']);
  });

  it('documents every method in PROTOCOL.md with an example and its errors', () => {
    const markdown = generated[1]?.content ?? '';
    for (const d of methodTable) {
      const section = markdown.split(`### \`${d.method}\`\n`)[1]?.split('\n### ')[0] ?? '';
      expect(section, d.method).toContain(d.summary);
      expect(section, d.method).toContain(`"method": "${d.method}"`);
      expect(section, d.method).toContain('Errors:');
    }
    expect(markdown).toContain('| -32010 | SessionBusy |');
    expect(markdown).toContain('## Transports and framing');
  });
});
