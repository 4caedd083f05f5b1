import type TurndownService from 'turndown';

/** Elements with no readable text, dropped before conversion. */
const DROPPED = ['script', 'style', 'noscript', 'iframe', 'template', 'svg', 'canvas', 'head'] as const;

let service: TurndownService | undefined;

/**
 * HTML to Markdown with turndown (ATX headings, fenced code), scripts and styles removed.
 * turndown is loaded on first use: it costs start-up time every daemon would pay otherwise.
 */
export async function htmlToMarkdown(html: string): Promise<string> {
  if (!service) {
    const { default: Turndown } = await import('turndown');
    service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove([...DROPPED] as unknown as TurndownService.Filter);
  }
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
