import type { ImagePart, TextPart } from '../providers/message.js';
import type { FileDiff, ToolResult } from '../tools/tool.js';
import type { ToolCallContent } from '../../protocol/index.js';

export type { ToolCallContent } from '../../protocol/index.js';

/** What the model sees of a result: text and images; resources inlined as text. */
export function toolResultToParts(result: ToolResult): Array<TextPart | ImagePart> {
  return result.content.map((part): TextPart | ImagePart => {
    if (part.type === 'resource') return { type: 'text', text: part.text ?? part.uri };
    return part;
  });
}

/** File changes as ACP `diff` content: a call's result, or the change a permission question proposes. */
export function diffContent(diffs: readonly FileDiff[]): ToolCallContent[] {
  return diffs.map((d) => ({ type: 'diff', path: d.path, oldText: d.oldText, newText: d.newText }));
}

/** What the client sees: a diff per changed file, then the content blocks. */
export function toToolCallContent(result: ToolResult): ToolCallContent[] {
  const diffs = diffContent(result.details?.diff ?? []);
  const blocks: ToolCallContent[] = result.content.map((part) => {
    if (part.type === 'text') return { type: 'content', content: { type: 'text', text: part.text } };
    if (part.type === 'image') return { type: 'content', content: { type: 'image', data: part.data, mimeType: part.mimeType } };
    return {
      type: 'content',
      content: { type: 'resource', resource: { uri: part.uri, text: part.text ?? '', ...(part.mimeType ? { mimeType: part.mimeType } : {}) } },
    };
  });
  return [...diffs, ...blocks];
}
