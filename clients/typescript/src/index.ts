/* The agentd TypeScript client: a typed JSON-RPC client derived from protocol/methods.ts. */
export * from './agentd-connection.js';
export * from './agentd-client.js';
export * from './agentd-client-error.js';
export * from './protocol-methods.js';
export * from './agentd.js';
export * from './agentd-session.js';
export * from './connect-socket.js';
export * from './connect-websocket.js';
export * from './websocket-like.js';
