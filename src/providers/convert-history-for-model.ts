import type { AssistantContentPart, AssistantMessage, ModelMessage, ThinkingPart, ToolCallPart } from './message.js';
import { commonStart } from './common-start.js';

/** The model a request goes to. */
export interface HistoryTarget {
  /** Wire protocol: `anthropic-messages`, `openai-chat`, `openai-responses`, `gemini`, `cohere` or `bedrock` (Vertex reports the protocol of the model it serves). */
  protocol: string;
  provider: string;
  modelId: string;
}

/**
 * The history as the target model may receive it, for any switch of model inside a
 * session (a fallback, `session/set_config_option`, a sub-agent on another vendor). A
 * message the target model wrote itself passes unchanged. From any other model:
 * - reasoning becomes plain text in `<thinking>` tags when it has readable text, and is
 *   dropped when it is only a signature or encrypted data (they are bound to the model
 *   that made them: Anthropic signatures, Responses `encrypted_content`, Gemini
 *   `thoughtSignature`);
 * - vendor data on tool calls (Gemini thought signatures, Responses item ids) is dropped;
 * - tool-call ids the target would reject are rewritten, the same way in the call and in
 *   its result (Anthropic: `^[a-zA-Z0-9_-]+$`, at most 64 characters, per its Messages API
 *   reference for `tool_use.id`; Bedrock the same for `toolUseId`, per its ToolUseBlock
 *   reference; OpenAI: `call_id` of at most 64 characters).
 * pi's cross-provider hand-off (packages/ai transform-messages) is the model for this.
 */
export function convertHistoryForModel(messages: readonly ModelMessage[], target: HistoryTarget): ModelMessage[] {
  const ref = `${target.provider}/${target.modelId}`;
  // The usual case, a session on one model: nothing to change, and each message is checked once.
  const key = `${target.protocol}\n${ref}`;
  if (allPassUnchanged(messages, target, ref, key)) return [...messages];
  const ids = new ToolCallIds(target.protocol);
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') return message;
    if (message.role === 'tool') {
      if (!message.content.some((r) => ids.renamed(r.toolCallId))) return message;
      return { ...message, content: message.content.map((r) => ({ ...r, toolCallId: ids.renamed(r.toolCallId) ?? r.toolCallId })) };
    }
    if (writtenBy(message, target, ref)) return withValidIds(message, ids);
    const content = message.content.flatMap((part): AssistantContentPart[] => {
      if (part.type === 'thinking') return thinkingAsText(part);
      if (part.type === 'tool_call') return [foreignCall(part, ids)];
      return [part];
    });
    return { ...message, content };
  });
}

/**
 * Per session, keyed by its history's first message (weakly: a dropped session's entry goes
 * with it): the last history found to go to a target unchanged, and that target. The next
 * request's history is mostly the same messages: only those after the shared start are checked.
 */
const lastPassed = new WeakMap<ModelMessage, { key: string; messages: readonly ModelMessage[] }>();

function allPassUnchanged(messages: readonly ModelMessage[], target: HistoryTarget, ref: string, key: string): boolean {
  const first = messages[0];
  if (first === undefined) return true;
  const last = lastPassed.get(first);
  const from = last !== undefined && last.key === key ? commonStart(last.messages, messages) : 0;
  for (let i = from; i < messages.length; i++) if (!passesUnchanged(messages[i]!, target, ref, key)) return false;
  // A copy: the caller's array may change after this call.
  lastPassed.set(first, { key, messages: [...messages] });
  return true;
}

/** For each message checked, the target (protocol and model) it goes to unchanged; messages are never changed once made. */
const unchangedFor = new WeakMap<ModelMessage, string>();

/**
 * Whether the message goes to the target as it is: a user message; a tool message or the
 * target's own message whose tool-call ids all spell the same for the target. When every
 * message of a history does, no id is rewritten anywhere, so none can clash either.
 */
function passesUnchanged(message: ModelMessage, target: HistoryTarget, ref: string, key: string): boolean {
  if (message.role === 'user' || unchangedFor.get(message) === key) return true;
  const unchanged =
    message.role === 'tool'
      ? message.content.every((result) => spell(target.protocol, result.toolCallId) === result.toolCallId)
      : writtenBy(message, target, ref) && message.content.every((part) => part.type !== 'tool_call' || spell(target.protocol, part.id) === part.id);
  if (unchanged) unchangedFor.set(message, key);
  return unchanged;
}

/** Whether the target model wrote the message: by its recorded model, else (older rows) by its reasoning's protocol. */
function writtenBy(message: AssistantMessage, target: HistoryTarget, ref: string): boolean {
  if (message.model !== undefined) return message.model === ref;
  return message.content.every((part) => part.type !== 'thinking' || part.providerProtocol === undefined || part.providerProtocol === target.protocol);
}

function thinkingAsText(part: ThinkingPart): AssistantContentPart[] {
  if (part.text.trim() === '') return [];
  return [{ type: 'text', text: `<thinking>\n${part.text}\n</thinking>` }];
}

function foreignCall(part: ToolCallPart, ids: ToolCallIds): ToolCallPart {
  const { providerData: _vendorData, ...call } = part;
  return { ...call, id: ids.valid(part.id) };
}

/** The target's own messages keep everything; only an id another model chose may need a new spelling. */
function withValidIds(message: AssistantMessage, ids: ToolCallIds): AssistantMessage {
  if (!message.content.some((p) => p.type === 'tool_call' && ids.valid(p.id) !== p.id)) return message;
  return { ...message, content: message.content.map((p) => (p.type === 'tool_call' ? { ...p, id: ids.valid(p.id) } : p)) };
}

const MAX_ID_LENGTH = 64;

/** Tool-call ids made valid for one protocol, consistently: the same id always maps to the same new one. */
class ToolCallIds {
  private readonly map = new Map<string, string>();
  private readonly used = new Set<string>();
  /** The new spellings given so far: an id that needs none must still not take one of them. */
  private readonly rewritten = new Set<string>();

  constructor(private readonly protocol: string) {}

  valid(id: string): string {
    const known = this.map.get(id);
    if (known !== undefined) return known;
    let next = spell(this.protocol, id);
    // Two ids that spell the same after cleaning must stay two calls, and so must an id that
    // needed no rewrite and one rewritten earlier to its spelling. An id kept as it is may
    // repeat (servers that number calls per turn): each result still follows its own call.
    const clash = (spelling: string): boolean => (spelling === id ? this.rewritten.has(spelling) : this.used.has(spelling));
    for (let n = 2; clash(next); n += 1) next = `${next.slice(0, MAX_ID_LENGTH - String(n).length - 1)}_${n}`;
    this.used.add(next);
    if (next !== id) {
      this.map.set(id, next);
      this.rewritten.add(next);
    }
    return next;
  }

  /** The new spelling of an id rewritten in an earlier call, if it was. */
  renamed(id: string): string | undefined {
    return this.map.get(id);
  }
}

/** An id as the protocol accepts it (before any clash with another id is resolved). */
function spell(protocol: string, id: string): string {
  if (protocol === 'anthropic-messages' || protocol === 'bedrock') {
    const clean = id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'call';
    return clean.slice(0, MAX_ID_LENGTH);
  }
  // Cohere documents no id format beyond a string (its own are `<tool name>_<random>`), so it is kept as OpenAI's are.
  if (protocol === 'openai-responses' || protocol === 'openai-chat' || protocol === 'cohere') return id === '' ? 'call' : id.slice(0, MAX_ID_LENGTH);
  // Gemini matches results by name and order; its converter keeps only ids Gemini itself assigned.
  return id;
}
