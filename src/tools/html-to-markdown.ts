import TurndownService from 'turndown';

/** Elements with no readable text, dropped before conversion. */
const DROPPED = ['script', 'style', 'noscript', 'iframe', 'template', 'svg', 'canvas', 'head'] as const;

let service: TurndownService | undefined;

/** HTML to Markdown with turndown (ATX headings, fenced code), scripts and styles removed. */
export function htmlToMarkdown(html: string): string {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove([...DROPPED] as unknown as TurndownService.Filter);
  }
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
