import type { ContentBlock } from '../../../../protocol/index.js';

/** The text a content block shows in a transcript: its text, or a short stand-in for what is not text. */
export function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource && typeof block.resource.text === 'string' ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return '';
  }
}
