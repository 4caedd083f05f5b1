import { z } from 'zod';
import { RequestIdSchema } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema } from './meta.js';

/*
 * Request cancellation, both spellings: ACP's `$/cancel_request`
 * (https://agentclientprotocol.com/protocol/v1/cancellation) and LSP's `$/cancelRequest`
 * (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#cancelRequest),
 * so ACP SDKs and vscode-jsonrpc clients both work. Either side cancels its own pending
 * request; the receiver still answers it, with a result or RequestCancelled (-32800).
 * The daemon may send `$/cancel_request` for its own pending `tools/call` and hook
 * requests when the turn that made them is cancelled or aborted.
 */

/** `$/cancel_request` params (ACP). */
export const CancelRequestNotificationSchema = z
  .looseObject({ requestId: RequestIdSchema.describe('Id of the request to cancel.'), _meta: MetaSchema })
  .describe('Params of `$/cancel_request`.');
export type CancelRequestNotification = z.infer<typeof CancelRequestNotificationSchema>;

/** `$/cancelRequest` params (LSP `CancelParams`). */
export const LspCancelParamsSchema = z
  .looseObject({ id: z.union([z.string(), z.number().int()]).describe('Id of the request to cancel.') })
  .describe('Params of `$/cancelRequest` (LSP CancelParams).');
export type LspCancelParams = z.infer<typeof LspCancelParamsSchema>;

export const cancelRequestMethod = defineMethod({
  method: '$/cancel_request',
  clientMethod: 'cancelRequest',
  direction: 'both',
  kind: 'notification',
  params: CancelRequestNotificationSchema,
  result: undefined,
  summary: 'Cancel one of the sender\'s pending requests (ACP spelling); it still gets an answer.',
  acp: true,
  feature: 'cancellation',
  errors: [],
  example: { params: { requestId: 7 } },
});

export const lspCancelRequestMethod = defineMethod({
  method: '$/cancelRequest',
  clientMethod: 'lspCancelRequest',
  direction: 'both',
  kind: 'notification',
  params: LspCancelParamsSchema,
  result: undefined,
  summary: 'Cancel one of the sender\'s pending requests (LSP spelling, for vscode-jsonrpc style clients).',
  acp: false,
  feature: 'cancellation',
  errors: [],
  example: { params: { id: 7 } },
});
