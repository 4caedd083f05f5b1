import { z } from 'zod';
import { detectImageType } from '../files/detect-image-type.js';
import { guardedFetch, type ResolvedAddress } from '../web/guarded-fetch.js';
import { htmlToMarkdown } from '../web/html-to-markdown.js';
import { webFetchRedirectGate } from './web-fetch-redirect-gate.js';
import type { AddressPolicy } from '../web/ssrf-guard.js';
import type { Tool, ToolResult } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

export const WEB_FETCH_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const WEB_FETCH_MAX_CHARS = 100_000;
export const WEB_FETCH_DEFAULT_TIMEOUT_MS = 30_000;

/** Settings of the web_fetch tool. */
export interface WebFetchOptions {
  /** Only these hosts (exact, or `*.example.com`) may be fetched; any public host when unset. */
  allowedHosts?: string[];
  /** Which addresses may be dialled (default: public unicast only). Tests allow 127.0.0.1. */
  isAddressAllowed?: AddressPolicy;
  /** Hostname resolution (default `dns.lookup`); injectable for tests. */
  resolveHost?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Whole-fetch timeout (default 30 s). */
  timeoutMs?: number;
}

export const webFetchSchema = z
  .object({
    url: z.string().min(1).describe('Absolute http:// or https:// URL.'),
    maxBytes: z
      .number()
      .int()
      .min(1)
      .max(WEB_FETCH_DEFAULT_MAX_BYTES * 2)
      .optional()
      .describe(`Most bytes of the response to read (default ${WEB_FETCH_DEFAULT_MAX_BYTES}).`),
  })
  .strict();

export type WebFetchArgs = z.infer<typeof webFetchSchema>;

/** The web_fetch tool: public pages as Markdown, text as text, images as images. */
export function createWebFetchTool(options: WebFetchOptions = {}): Tool<WebFetchArgs> {
  return {
    name: 'web_fetch',
    description:
      'Fetch a public web page (HTTP GET) and return it as Markdown; text and JSON come back as they are, images as images. ' +
      `Output is cut at ${WEB_FETCH_MAX_CHARS} characters. Private and local network addresses are refused.`,
    inputSchema: webFetchSchema,
    kind: 'fetch',
    access: 'network',
    title: (args) => `Fetch ${args.url}`,
    async execute(args, ctx) {
      const timeoutMs = options.timeoutMs ?? WEB_FETCH_DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const response = await guardedFetch(args.url, {
          allowedHosts: ctx.settings ? ctx.settings.webFetchAllowedHosts : options.allowedHosts,
          isAddressAllowed: options.isAddressAllowed,
          resolveHost: options.resolveHost,
          maxBytes: args.maxBytes ?? WEB_FETCH_DEFAULT_MAX_BYTES,
          beforeRedirect: webFetchRedirectGate(args, ctx, args.url),
          signal: AbortSignal.any([ctx.signal, timeout]),
        });
        return await toResult(response);
      } catch (error) {
        if (timeout.aborted && !ctx.signal.aborted) {
          return errorResult(new ToolError(`Fetching ${args.url} timed out after ${timeoutMs / 1000} s.`));
        }
        return errorResult(error);
      }
    },
  };
}

async function toResult(response: Awaited<ReturnType<typeof guardedFetch>>): Promise<ToolResult> {
  const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
  const notes: string[] = [];
  if (response.truncated) notes.push(`[The response was cut at ${response.body.length} bytes.]`);
  const image = detectImageType(response.body);
  if (image && response.status < 400 && !response.truncated) {
    return {
      content: [
        { type: 'text', text: `Image from ${response.url} (${image}, ${response.body.length} bytes):` },
        { type: 'image', data: response.body.toString('base64'), mimeType: image },
      ],
    };
  }
  if (!isTextual(contentType, response.body)) {
    throw new ToolError(`${response.url} returned ${contentType || 'binary content'}, which is not text; it cannot be shown.`);
  }
  const text = decode(response.body, contentType);
  const isHtml = contentType.includes('html') || (!contentType && /^\s*<(!doctype html|html)/i.test(text));
  let shown = isHtml ? await htmlToMarkdown(text) : text;
  if (shown.length > WEB_FETCH_MAX_CHARS) {
    notes.push(`[Output cut at ${WEB_FETCH_MAX_CHARS} of ${shown.length} characters.]`);
    shown = shown.slice(0, WEB_FETCH_MAX_CHARS);
  }
  const header = `${response.url} (HTTP ${response.status}${contentType ? `, ${contentType.split(';')[0]}` : ''})`;
  const body = [header, shown, ...notes].join('\n\n');
  if (response.status >= 400) return { content: [{ type: 'text', text: body }], isError: true };
  return textResult(body, response.truncated || notes.length > 0 ? { truncated: true } : undefined);
}

function isTextual(contentType: string, body: Buffer): boolean {
  if (/^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml))|\+json|\+xml/.test(contentType)) return true;
  if (contentType !== '' && contentType !== 'application/octet-stream') return false;
  return !body.subarray(0, 8192).includes(0);
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;\s]+)/.exec(contentType)?.[1]?.replace(/"/g, '');
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return body.toString('utf8');
  }
}
