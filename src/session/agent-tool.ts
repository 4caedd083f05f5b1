import { z } from 'zod';
import type { AgentDefinition } from '../config/agent-definition.js';
import type { ToolResult } from '../tools/tool.js';
import type { Tool } from '../tools/tool.js';
import { childConstraints } from '../project/agent-constraints.js';
import type { SessionManager } from './session-manager.js';
import type { Session } from './session.js';

export const agentToolSchema = z.object({
  description: z.string().min(1).describe('A short (3-7 word) label for the task, shown to the user.'),
  prompt: z.string().min(1).describe('The complete task for the sub-agent: it sees nothing of this conversation, so include every fact it needs.'),
  agent: z.string().optional().describe('Which agent runs it (e.g. explore, plan, build); defaults to this session\'s own kind of access.'),
});
export type AgentToolArgs = z.infer<typeof agentToolSchema>;

export interface AgentToolOptions {
  /** The daemon's sessions, which the tool's sub-agents join. */
  sessions: SessionManager;
}

/** Config `subagents` of the parent's project: limits, executor model and budget. */
function subagentSettings(parent: Session): { maxConcurrent: number; executorModel: string | undefined; budgetUsd: number | undefined } {
  const subagents = parent.project.settings.config.subagents ?? {};
  return { maxConcurrent: subagents.maxConcurrent ?? 4, executorModel: subagents.executorModel, budgetUsd: subagents.budgetUsd };
}

const ACCESS_RANK: Record<AgentDefinition['access'], number> = { search: 0, read: 1, full: 2 };

/**
 * The `agent` tool: runs a task in a child session (its own context, agent, model and
 * turn limit) and returns its final answer. The child's text streams to the client as
 * progress of this call; aborting the call aborts the child. A child never gets more
 * access than the agent that started it: its access rank may not be higher, and it may
 * use only the tools both its own agent and every ancestor's agent allow (the ancestors
 * are kept in its session meta, see agent-constraints.ts).
 */
export function createAgentTool(options: AgentToolOptions): Tool<AgentToolArgs> {
  const running = new Map<string, number>();
  const waiters = new Map<string, Array<() => void>>();
  const spent = new Map<string, number>();

  /** Waits for a free slot; false when the call was aborted while waiting (no slot taken). */
  const acquire = async (parentId: string, maxConcurrent: number, signal: AbortSignal): Promise<boolean> => {
    while ((running.get(parentId) ?? 0) >= maxConcurrent) {
      if (signal.aborted) return false;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal.removeEventListener('abort', wake);
          waiters.set(parentId, (waiters.get(parentId) ?? []).filter((w) => w !== wake));
          resolve();
        };
        waiters.set(parentId, [...(waiters.get(parentId) ?? []), wake]);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
    if (signal.aborted) return false;
    running.set(parentId, (running.get(parentId) ?? 0) + 1);
    return true;
  };
  const release = (parentId: string): void => {
    running.set(parentId, (running.get(parentId) ?? 1) - 1);
    waiters.get(parentId)?.shift()?.();
  };

  return {
    name: 'agent',
    description:
      'Start a sub-agent with its own fresh context to do one self-contained task (research, a search across the code, a focused change) ' +
      'and return its final answer. Several agent calls in one message run in parallel. Give it the whole task: it cannot see this conversation.',
    inputSchema: agentToolSchema,
    kind: 'think',
    access: 'read',
    title: (args) => `Sub-agent: ${args.description}`,
    // A child is bounded by its own turn limit and budget, not by the per-call limit.
    timeoutMs: () => Infinity,
    async execute(args, ctx): Promise<ToolResult> {
      const { sessions } = options;
      const parent = await sessions.open(ctx.sessionId);
      const parentAgent = parent.project.agent(parent.record);
      const agents = parent.project.agents(parent.record);
      const name = args.agent ?? (parentAgent.access === 'full' ? 'build' : parentAgent.name);
      const agent = agents.find((a) => a.name === name);
      if (!agent) return error(`Unknown agent "${name}"; available: ${agents.map((a) => a.name).join(', ')}.`);
      if (ACCESS_RANK[agent.access] > ACCESS_RANK[parentAgent.access]) {
        return error(`The ${parentAgent.name} agent may not start a ${agent.name} sub-agent: it would have more access (${agent.access}) than ${parentAgent.access}.`);
      }
      const settings = subagentSettings(parent);
      const remaining = settings.budgetUsd === undefined ? undefined : settings.budgetUsd - (spent.get(parent.id) ?? 0);
      if (remaining !== undefined && remaining <= 0) return error(`The sub-agent budget of $${settings.budgetUsd} for this session is spent.`);

      if (!(await acquire(parent.id, settings.maxConcurrent, ctx.signal))) return error('The sub-agent call was cancelled before it started.');
      let child: Session | undefined;
      try {
        child = await sessions.create({
          cwd: ctx.cwd,
          additionalDirectories: ctx.additionalDirectories,
          meta: {
            parentSessionId: parent.id,
            parentToolCallId: ctx.toolCallId,
            agentConstraints: childConstraints(parent.record, parentAgent),
            ...(remaining !== undefined ? { budgetUsd: remaining } : {}),
          },
        });
        await child.setMode(agent.name);
        const model = agent.model ?? settings.executorModel ?? parent.record.model;
        if (model) await child.setModel(model);
        let text = '';
        const unsubscribe = child.subscribe((event) => {
          if (event.type !== 'text_delta') return;
          text += event.text;
          ctx.onProgress({ delta: event.text, output: text });
        });
        const stopChild = (): void => child?.cancel();
        ctx.signal.addEventListener('abort', stopChild, { once: true });
        try {
          const outcome = await child.submit([{ type: 'text', text: args.prompt }]).outcome;
          const answer = finalAnswer(child) || '(the sub-agent gave no answer)';
          if (outcome.stopReason === 'cancelled') return error(`The sub-agent was cancelled. Partial answer:\n${answer}`);
          return { content: [{ type: 'text', text: answer }] };
        } finally {
          unsubscribe();
          ctx.signal.removeEventListener('abort', stopChild);
        }
      } catch (failure) {
        return error(`The sub-agent failed: ${(failure as Error).message}`);
      } finally {
        if (child) {
          spent.set(parent.id, (spent.get(parent.id) ?? 0) + child.record.totalCostUsd);
          // Its history stays in the store; the live session is not needed any more.
          await sessions.close(child.id).catch(() => undefined);
        }
        release(parent.id);
      }
    },
  };
}

function finalAnswer(session: Session): string {
  for (let i = session.messages.length - 1; i >= 0; i--) {
    const message = session.messages[i]!;
    if (message.role !== 'assistant') continue;
    const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text.trim()) return text;
  }
  return '';
}

function error(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
