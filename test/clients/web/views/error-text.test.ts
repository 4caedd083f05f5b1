import { describe, expect, it } from 'vitest';
import { AgentdClientError } from '../../../../clients/typescript/src/agentd-client-error.js';
import { errorText, issuesByField } from '../../../../clients/web/src/views/error-text.js';

describe('the daemon\'s errors in a view', () => {
  const refused = new AgentdClientError(-32602, 'invalid params for schedules/add: cron: bad minute; cwd: /nope does not exist', {
    issues: ['cron: "61" is not a minute (0-59)', 'cwd: /nope does not exist; create it', 'the schedule name is taken'],
  });

  it('shows the message the daemon wrote', () => {
    expect(errorText(refused)).toBe('invalid params for schedules/add: cron: bad minute; cwd: /nope does not exist');
    expect(errorText('plain')).toBe('plain');
  });

  it('splits InvalidParams issues by the field they name, the rest under the empty key', () => {
    const byField = issuesByField(refused, ['cron', 'cwd', 'name']);
    expect([...byField]).toEqual([
      ['cron', ['"61" is not a minute (0-59)']],
      ['cwd', ['/nope does not exist; create it']],
      ['', ['the schedule name is taken']],
    ]);
  });

  it('puts an issue of a field the form does not have under the empty key, whole', () => {
    const byField = issuesByField(refused, ['name']);
    expect([...byField.keys()]).toEqual(['']);
    expect(byField.get('')).toEqual(refused.data && (refused.data as { issues: string[] }).issues);
  });

  it('finds no issues in an error without them', () => {
    expect(issuesByField(new Error('connection closed'), ['cron']).size).toBe(0);
    expect(issuesByField(new AgentdClientError(-32602, 'x', { issues: 'not a list' }), ['cron']).size).toBe(0);
  });
});
