import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  SessionNotificationSchema,
  SessionUpdateSchema,
  methodTable,
  namedSchemas,
  toJsonSchema,
  type JsonSchema,
} from '../../protocol/index.js';
import { acpEdgeCases, sessionUpdates } from './acp-samples.js';

/*
 * Conformance with the official ACP v1 JSON Schema shipped in @agentclientprotocol/sdk.
 * It declares draft 2020-12 (`$schema`), hence Ajv2020. Formats (int64, uint32, ...) are
 * Rust type hints there, not JSON Schema formats, so they are not validated.
 */
const require = createRequire(import.meta.url);
const acpSchema = require('@agentclientprotocol/sdk/schema/v1/schema.json') as {
  $schema: string;
  $defs: Record<string, JsonSchema>;
};
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(acpSchema, 'acp');

function acpErrors(defName: string, value: unknown): string[] {
  expect(acpSchema.$defs[defName], `ACP has no $defs/${defName}`).toBeDefined();
  const validate = ajv.getSchema(`acp#/$defs/${defName}`);
  if (validate === undefined) throw new Error(`cannot compile acp#/$defs/${defName}`);
  validate(value);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

const named = namedSchemas();
const nameOf = new Map([...named].map(([name, schema]) => [schema, name]));
const acpMethods = methodTable.filter((d) => d.acp);

describe('ACP v1 schema conformance', () => {
  it('is the draft the validator expects', () => {
    expect(acpSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  for (const d of acpMethods) {
    it(`${d.method}: types are named as in ACP and the example validates`, () => {
      const paramsName = nameOf.get(d.params) ?? '';
      expect(acpErrors(paramsName, d.example.params)).toEqual([]);
      if (d.result !== undefined) {
        const resultName = nameOf.get(d.result) ?? '';
        expect(acpErrors(resultName, d.example.result)).toEqual([]);
      }
    });
  }

  it('has a sample for every SessionUpdate variant of ACP and of ours', () => {
    const acpVariants = (acpSchema.$defs.SessionUpdate?.oneOf ?? []).map(
      (variant) => (variant.properties?.sessionUpdate as JsonSchema | undefined)?.const,
    );
    const ourVariants = SessionUpdateSchema.options.map((option) => option.shape.sessionUpdate.value);
    expect([...ourVariants].sort()).toEqual([...acpVariants].sort());
    expect(Object.keys(sessionUpdates).sort()).toEqual([...acpVariants].sort());
  });

  for (const [kind, update] of Object.entries(sessionUpdates)) {
    it(`session/update ${kind}: valid for ACP and for our schema`, () => {
      const notification = { sessionId: 'ses_1', update };
      expect(acpErrors('SessionNotification', notification)).toEqual([]);
      expect(SessionNotificationSchema.safeParse(notification).error?.issues ?? []).toEqual([]);
    });
  }

  it('rejects, like ACP, a tool_call without a title and a usage_update without size', () => {
    for (const update of [
      { sessionUpdate: 'tool_call', toolCallId: 'c' },
      { sessionUpdate: 'usage_update', used: 1 },
      { sessionUpdate: 'notice', severity: 'info', title: '' },
    ]) {
      const notification = { sessionId: 's', update };
      expect(acpErrors('SessionNotification', notification)).not.toEqual([]);
      expect(SessionNotificationSchema.safeParse(notification).success).toBe(false);
    }
  });

  acpEdgeCases.forEach(([defName, value], index) => {
    it(`accepts everything ACP accepts: ${defName} #${index}`, () => {
      expect(acpErrors(defName, value)).toEqual([]);
      const ours = named.get(defName);
      expect(ours, `no protocol schema named ${defName}`).toBeDefined();
      expect(ours?.safeParse(value).error?.issues ?? []).toEqual([]);
    });
  });

  it('mirrors every field of each ACP type of the same name, stays open, and requires no more', () => {
    const discriminators = new Set(['type', 'sessionUpdate', 'outcome']);
    let compared = 0;
    for (const [name, schema] of named) {
      const acp = acpSchema.$defs[name];
      if (acp === undefined) continue;
      const ours = toJsonSchema(schema);
      const variants = ours.anyOf ?? ours.oneOf ?? [ours];
      const objectVariants = variants.filter((v) => v.type === 'object');
      if (acp.properties !== undefined && objectVariants.length > 0) {
        compared += 1;
        const ourFields = new Set(objectVariants.flatMap((v) => Object.keys(v.properties ?? {})));
        expect(Object.keys(acp.properties).filter((field) => !ourFields.has(field)), `${name} misses fields`).toEqual([]);
        for (const v of objectVariants) {
          expect(v.additionalProperties, `${name} must stay open`).not.toBe(false);
          if (variants.length === 1) {
            const acpRequired = new Set(acp.required ?? []);
            const extra = (v.required ?? []).filter((field) => !acpRequired.has(field) && !discriminators.has(field));
            expect(extra, `${name} requires more than ACP`).toEqual([]);
          }
        }
      }
      const acpConsts = (acp.oneOf ?? []).map((v) => v.const);
      if (acpConsts.length > 0 && acpConsts.every((value) => typeof value === 'string')) {
        compared += 1;
        expect(ours.enum ? [...ours.enum].sort() : ours, `${name} values`).toEqual([...acpConsts].sort());
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('never adds root fields to ACP result types (extras live in _meta)', () => {
    for (const d of acpMethods) {
      for (const schema of [d.params, d.result]) {
        if (!(schema instanceof z.ZodObject)) continue;
        const name = nameOf.get(schema) ?? '';
        const acpFields = Object.keys(acpSchema.$defs[name]?.properties ?? {});
        expect(Object.keys(schema.shape).filter((field) => !acpFields.includes(field)), name).toEqual([]);
      }
    }
  });
});
