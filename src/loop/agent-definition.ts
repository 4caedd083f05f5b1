/**
 * The agent definition type lives in config/ (loadAgents builds it there, and config/
 * must not import from loop/); the loop uses it from here.
 */
export type { AgentAccess, AgentDefinition } from '../config/agent-definition.js';
