import { z } from 'zod';
import type { PlanEntry, Tool } from '../tool.js';
import { errorResult, textResult } from '../tool-error.js';

export const todoSchema = z
  .object({
    todos: z
      .array(
        z
          .object({
            content: z.string().min(1).describe('What the step does, in a short sentence.'),
            status: z.enum(['pending', 'in_progress', 'completed']),
            priority: z.enum(['high', 'medium', 'low']).optional().describe('Default medium.'),
          })
          .strict(),
      )
      .describe('The whole plan; it replaces the previous one.'),
  })
  .strict();

export type TodoArgs = z.infer<typeof todoSchema>;

const MARK: Record<PlanEntry['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

export const todoTool: Tool<TodoArgs> = {
  name: 'todo',
  description:
    'Keep a plan of the steps of a multi-step task: send the whole list each time (it replaces the previous one), ' +
    'mark one step in_progress while you work on it and completed as soon as it is done. The user sees the plan.',
  inputSchema: todoSchema,
  kind: 'think',
  access: 'read',
  title: (args) => `Update plan (${args.todos.length} steps)`,
  execute(args) {
    try {
      const plan: PlanEntry[] = args.todos.map((t) => ({ content: t.content, status: t.status, priority: t.priority ?? 'medium' }));
      const done = plan.filter((p) => p.status === 'completed').length;
      const lines = plan.map((p) => `${MARK[p.status]} ${p.content}`);
      const text = plan.length === 0 ? 'The plan is now empty.' : `Plan updated (${done}/${plan.length} done):\n${lines.join('\n')}`;
      return Promise.resolve(textResult(text, { plan }));
    } catch (error) {
      return Promise.resolve(errorResult(error));
    }
  },
};
