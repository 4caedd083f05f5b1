/*
 * The agentd TypeScript client for the browser: a typed connection over a WebSocket. Bundled
 * with vscode-jsonrpc's browser build (scripts/bundle-web.mjs maps `vscode-jsonrpc/node.js`
 * to it); no Node built-in and no schema is loaded, so zod stays out of the bundle.
 */
export * from './agentd-connection.js';
export * from './agentd-client-error.js';
export * from './connect-websocket.js';
export * from './websocket-like.js';
export * from './websocket-message-reader.js';
export * from './websocket-message-writer.js';
