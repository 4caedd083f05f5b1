import type { ImagePart, TextPart } from '../providers/message.js';
import type { ToolResult } from '../tools/tool.js';
import type { ToolCallContent } from '../../protocol/index.js';

export type { ToolCallContent } from '../../protocol/index.js';

/** What the model sees of a result: text and images; resources inlined as text. */
export function toolResultToParts(result: ToolResult): Array<TextPart | ImagePart> {
  return result.content.map((part): TextPart | ImagePart => {
    if (part.type === 'resource') return { type: 'text', text: part.text ?? part.uri };
    return part;
  });
}

/** What the client sees: a diff per changed file, then the content blocks. */
export function toToolCallContent(result: ToolResult): ToolCallContent[] {
  const diffs: ToolCallContent[] = (result.details?.diff ?? []).map((d) => ({ type: 'diff', path: d.path, oldText: d.oldText, newText: d.newText }));
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
