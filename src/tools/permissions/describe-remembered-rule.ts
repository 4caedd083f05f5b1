import { parsePermissionRule } from '../../config/parse-permission-rule.js';

const PATH_TOOLS = new Set(['read', 'write', 'edit', 'ls', 'glob', 'grep']);

/** Undoes the escaping ruleForCall adds, for display. */
function unescape(pattern: string): string {
  return pattern.replace(/\\(.)/g, '$1');
}

/**
 * What a remembered rule covers, in words for a permission option's label and for
 * `agentd permissions list`: exactly what will be remembered, no more.
 */
export function describeRememberedRule(text: string): string {
  const rule = parsePermissionRule(text);
  if (rule.pattern === undefined) return `every ${rule.tool} call in this project`;
  if (rule.tool === 'bash') return `this exact command in this project: ${unescape(rule.pattern)}`;
  if (PATH_TOOLS.has(rule.tool)) return `${rule.tool} of this one file (symlinks resolved): ${unescape(rule.pattern)}`;
  if (rule.pattern.startsWith('domain:')) return `${rule.tool} to the host ${unescape(rule.pattern.slice('domain:'.length))} in this project`;
  return `${rule.tool} "${unescape(rule.pattern)}" in this project`;
}
