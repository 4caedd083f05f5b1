import type { ContentBlock } from '../../protocol/index.js';
import type { UserContentPart } from '../providers/message.js';
import { PromptContentError } from './session-errors.js';

/**
 * ACP prompt blocks → the unified user message. Links stay links (the model reads
 * them with its tools when it needs them); embedded resources are inlined as text.
 */
export function convertPrompt(blocks: ContentBlock[]): UserContentPart[] {
  if (blocks.length === 0) throw new PromptContentError('prompt is empty: send at least one text block');
  return blocks.map((block, index): UserContentPart => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image', data: block.data, mimeType: block.mimeType };
      case 'resource_link':
        return { type: 'text', text: `[Referenced: ${block.name}](${block.uri})` };
      case 'resource': {
        const resource = block.resource as { uri: string; text?: string; blob?: string; mimeType?: string | null };
        if (typeof resource.text === 'string') {
          return { type: 'text', text: `<resource uri="${resource.uri}">\n${resource.text}\n</resource>` };
        }
        throw new PromptContentError(
          `prompt[${index}]: binary embedded resources are not supported; send the file as a resource_link instead`,
        );
      }
      default:
        throw new PromptContentError(
          `prompt[${index}]: content type "${(block as { type: string }).type}" is not supported; ` +
            'send text, image, resource_link or resource blocks',
        );
    }
  });
}
