import { describe, expect, it } from 'vitest';
import { parsePermissionRule } from '../../src/config/parse-permission-rule.js';

describe('parsePermissionRule', () => {
  it.each([
    ['bash', { tool: 'bash', text: 'bash' }],
    ['  read  ', { tool: 'read', text: 'read' }],
    ['bash(npm test*)', { tool: 'bash', pattern: 'npm test*', text: 'bash(npm test*)' }],
    ['Bash(npm run test:*)', { tool: 'Bash', pattern: 'npm run test:*', text: 'Bash(npm run test:*)' }],
    ['edit(src/**)', { tool: 'edit', pattern: 'src/**', text: 'edit(src/**)' }],
    ['web_fetch(domain:example.com)', { tool: 'web_fetch', pattern: 'domain:example.com', text: 'web_fetch(domain:example.com)' }],
    ['bash(echo (a) | wc)', { tool: 'bash', pattern: 'echo (a) | wc', text: 'bash(echo (a) | wc)' }],
    ['bash(*)', { tool: 'bash', text: 'bash(*)' }],
    ['mcp__github__create_issue', { tool: 'mcp__github__create_issue', text: 'mcp__github__create_issue' }],
  ])('parses %s', (text, expected) => {
    expect(parsePermissionRule(text)).toEqual(expected);
  });

  it.each([
    ['', 'it is empty'],
    ['bash()', 'the pattern between the parentheses is empty'],
    ['bash(npm test', 'the pattern must end with ")"'],
    ['(x)', 'the tool name before "("'],
    ['ba sh', 'the tool name may only contain'],
  ])('rejects %j with a clear error', (text, problem) => {
    expect(() => parsePermissionRule(text)).toThrow(problem);
    expect(() => parsePermissionRule(text)).toThrow('Write "tool" or "tool(pattern)"');
  });
});
