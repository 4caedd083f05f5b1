import type { Framing } from '../../../../protocol/wire/frame-decoder.js';

const PREFIX = 'content-length:';

/**
 * Picks the framing from a connection's first bytes: LSP clients (vim.lsp.rpc,
 * jsonrpc.el, vscode-jsonrpc) open with a `Content-Length:` header, everything else is
 * NDJSON. Returns undefined while the bytes seen so far could still be either.
 */
export function detectFraming(firstBytes: Buffer): Framing | undefined {
  const trimmed = firstBytes.toString('latin1').replace(/^\s+/, '').slice(0, PREFIX.length).toLowerCase();
  if (trimmed.length === 0) return undefined;
  if (PREFIX.startsWith(trimmed)) return trimmed.length >= PREFIX.length ? 'content-length' : undefined;
  return trimmed.startsWith(PREFIX) ? 'content-length' : 'ndjson';
}
