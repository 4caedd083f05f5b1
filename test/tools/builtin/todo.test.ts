import { describe, expect, it } from 'vitest';
import { todoTool } from '../../../src/tools/builtin/todo.js';
import { makeContext, textOf } from '../tool-test-context.js';

describe('todo', () => {
  it('replaces the plan and returns it in details.plan with default priorities', async () => {
    const result = await todoTool.execute(
      {
        todos: [
          { content: 'Read the code', status: 'completed', priority: 'high' },
          { content: 'Fix the bug', status: 'in_progress' },
          { content: 'Run the tests', status: 'pending', priority: 'low' },
        ],
      },
      makeContext('/'),
    );
    expect(result.details?.plan).toEqual([
      { content: 'Read the code', status: 'completed', priority: 'high' },
      { content: 'Fix the bug', status: 'in_progress', priority: 'medium' },
      { content: 'Run the tests', status: 'pending', priority: 'low' },
    ]);
    expect(textOf(result)).toBe('Plan updated (1/3 done):\n[x] Read the code\n[~] Fix the bug\n[ ] Run the tests');
  });

  it('accepts an empty plan', async () => {
    const result = await todoTool.execute({ todos: [] }, makeContext('/'));
    expect(result.details?.plan).toEqual([]);
    expect(textOf(result)).toBe('The plan is now empty.');
  });
});
