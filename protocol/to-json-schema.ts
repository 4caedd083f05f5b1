import { z } from 'zod';
import * as cancelRequest from './cancel-request.js';
import * as content from './content.js';
import * as daemonEvents from './daemon-events.js';
import * as daemonHealth from './daemon-health.js';
import * as daemonCluster from './daemon-cluster.js';
import * as daemonStatus from './daemon-status.js';
import * as dashboard from './dashboard.js';
import * as dashboardQueries from './dashboard-queries.js';
import * as elicitation from './elicitation.js';
import * as events from './events.js';
import * as hooks from './hooks.js';
import * as initialize from './initialize.js';
import * as jsonrpc from './jsonrpc.js';
import * as mcpServer from './mcp-server.js';
import * as meta from './meta.js';
import type { MethodDescriptor } from './method-descriptor.js';
import { methodTable } from './methods.js';
import * as permission from './permission.js';
import * as prompt from './prompt.js';
import * as schedules from './schedules.js';
import * as session from './session.js';
import * as sessionConfig from './session-config.js';
import * as sessionExport from './session-export.js';
import * as sessionUpdate from './session-update.js';
import * as sessionOverview from './session-overview.js';
import * as toolCall from './tool-call.js';
import * as tools from './tools.js';

/*
 * JSON Schema output of the protocol, through zod 4's z.toJSONSchema
 * (https://zod.dev/json-schema). Every schema a feature module exports as `<Name>Schema`
 * becomes `$defs/<Name>`, so names in schema.json, PROTOCOL.md and TypeScript agree.
 */

/** A JSON Schema object (what z.toJSONSchema produces). */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Feature modules in PROTOCOL.md order; their `*Schema` exports are the named types. */
const featureModules: ReadonlyArray<Record<string, unknown>> = [
  jsonrpc,
  meta,
  content,
  toolCall,
  initialize,
  mcpServer,
  session,
  sessionConfig,
  prompt,
  sessionUpdate,
  permission,
  elicitation,
  tools,
  hooks,
  events,
  sessionOverview,
  daemonEvents,
  schedules,
  daemonStatus,
  dashboard,
  dashboardQueries,
  sessionExport,
  daemonHealth,
  daemonCluster,
  cancelRequest,
];

/** Every named protocol schema: `$defs` name → schema, in feature order. */
export function namedSchemas(): Map<string, z.ZodType> {
  const byName = new Map<string, z.ZodType>();
  const seen = new Map<z.ZodType, string>();
  for (const module of featureModules) {
    // Sorted: real ESM namespaces list exports alphabetically, bundler shims in declaration
    // order; sorting keeps schema.json byte-identical however the module was loaded.
    const exports = Object.entries(module).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [exportName, value] of exports) {
      if (!exportName.endsWith('Schema') || !(value instanceof z.ZodType)) continue;
      const name = exportName.slice(0, -'Schema'.length);
      const earlier = seen.get(value);
      if (earlier !== undefined) {
        throw new Error(`protocol schema ${name} is the same object as ${earlier}; export each schema once`);
      }
      seen.set(value, name);
      byName.set(name, value);
    }
  }
  return byName;
}

/** A self-contained JSON Schema for one zod schema (no `$ref`s out of it). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' });
}

/** Self-contained params and result schemas of one method. */
export function descriptorToJsonSchema(descriptor: MethodDescriptor): { params: JsonSchema; result?: JsonSchema } {
  const params = toJsonSchema(descriptor.params);
  return descriptor.result === undefined ? { params } : { params, result: toJsonSchema(descriptor.result) };
}

/** One entry of schema.json `methods`. */
export interface MethodListing {
  method: string;
  clientMethod: string;
  direction: MethodDescriptor['direction'];
  kind: MethodDescriptor['kind'];
  acp: boolean;
  feature: string;
  summary: string;
  params: { $ref: string };
  result?: { $ref: string };
  errors: number[];
  example: MethodDescriptor['example'];
}

/** The whole protocol as one JSON Schema document: `$defs` plus a `methods` listing. */
export interface SchemaDocument {
  $schema: string;
  title: string;
  description: string;
  $defs: Record<string, JsonSchema>;
  methods: MethodListing[];
}

/** Build schema.json's content from the method table and the named schemas. */
export function buildSchemaDocument(): SchemaDocument {
  const named = namedSchemas();
  const registry = z.registry<{ id: string }>();
  const nameOf = new Map<z.ZodType, string>();
  for (const [name, schema] of named) {
    registry.add(schema, { id: name });
    nameOf.set(schema, name);
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    uri: (id) => `#/$defs/${id}`,
  });
  const $defs: Record<string, JsonSchema> = {};
  for (const name of named.keys()) {
    const { $schema: _dialect, $id: _id, ...body } = schemas[name] ?? {};
    $defs[name] = body;
  }

  const ref = (descriptor: MethodDescriptor, which: 'params' | 'result', schema: z.ZodType) => {
    const name = nameOf.get(schema);
    if (name === undefined) {
      throw new Error(
        `the ${which} schema of ${descriptor.method} has no name; export it as <Name>Schema from its feature module`,
      );
    }
    return { $ref: `#/$defs/${name}` };
  };
  const methods = methodTable.map((descriptor: MethodDescriptor): MethodListing => {
    const listing: MethodListing = {
      method: descriptor.method,
      clientMethod: descriptor.clientMethod,
      direction: descriptor.direction,
      kind: descriptor.kind,
      acp: descriptor.acp,
      feature: descriptor.feature,
      summary: descriptor.summary,
      params: ref(descriptor, 'params', descriptor.params),
      errors: [...descriptor.errors],
      example: descriptor.example,
    };
    if (descriptor.result !== undefined) listing.result = ref(descriptor, 'result', descriptor.result);
    return listing;
  });

  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'agentd protocol',
    description:
      'JSON-RPC 2.0 protocol of agentd, a superset of the Agent Client Protocol v1. Generated from protocol/*.ts ' +
      'by `npm run protocol`; do not edit by hand.',
    $defs,
    methods,
  };
}
