/*
 * The agentd protocol's schemas and types: src/ and clients/ import them from here alone.
 * Modules that build no schema (protocol/wire/, format-json-path.ts) may be imported
 * directly, so a path that needs none (the `agentd acp` bridge) loads no schema at all;
 * test/layering.test.ts holds both rules. One module per feature, like LSP's protocol
 * files; methods.ts is the single table.
 */
export * from './jsonrpc.js';
export * from './meta.js';
export * from './format-json-path.js';
export * from './invalid-result-error.js';
export * from './method-descriptor.js';
export * from './content.js';
export * from './tool-call.js';
export * from './initialize.js';
export * from './mcp-server.js';
export * from './session.js';
export * from './session-config.js';
export * from './prompt.js';
export * from './session-update.js';
export * from './permission.js';
export * from './elicitation.js';
export * from './tools.js';
export * from './hooks.js';
export * from './events.js';
export * from './daemon-events.js';
export * from './schedules.js';
export * from './daemon-status.js';
export * from './daemon-cluster.js';
export * from './dashboard.js';
export * from './session-overview.js';
export * from './dashboard-queries.js';
export * from './session-export.js';
export * from './daemon-health.js';
export * from './cancel-request.js';
export * from './methods.js';
export * from './to-json-schema.js';
