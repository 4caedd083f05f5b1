import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { SessionIdSchema } from './meta.js';

/*
 * `session/export` (agentd extension): a stored or live session as a file a client can
 * save — the Markdown transcript `agentd sessions export` writes, or the session as stored
 * as JSON. Read from the store: the session is not loaded and its history not replayed.
 */

/** `session/export` params. */
export const ExportSessionRequestSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    format: z.enum(['markdown', 'json']).describe('`markdown`: the readable transcript; `json`: the record, turns and messages as stored.'),
  })
  .describe('Params of `session/export`.');
export type ExportSessionRequest = z.infer<typeof ExportSessionRequestSchema>;

/** `session/export` result. */
export const ExportSessionResponseSchema = z
  .strictObject({
    fileName: z.string().describe('A file name to save it under, e.g. `agentd-session-ses_01J9Z.md`.'),
    mimeType: z.string().describe('`text/markdown; charset=utf-8` or `application/json`.'),
    content: z.string().describe('The whole file.'),
  })
  .describe('Result of `session/export`.');
export type ExportSessionResponse = z.infer<typeof ExportSessionResponseSchema>;

export const exportSessionMethod = defineMethod({
  method: 'session/export',
  clientMethod: 'exportSession',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ExportSessionRequestSchema,
  result: ExportSessionResponseSchema,
  summary: 'A session as a Markdown transcript or as stored JSON, the same file `agentd sessions export` writes; nothing is loaded.',
  acp: false,
  feature: 'daemon',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound],
  example: {
    params: { sessionId: 'ses_01J9Z', format: 'markdown' },
    result: {
      fileName: 'agentd-session-ses_01J9Z.md',
      mimeType: 'text/markdown; charset=utf-8',
      content: '# Fix the flaky test\n\n- id: `ses_01J9Z`\n- directory: `/home/ada/project`\n\n## User\n\nFix the flaky test\n',
    },
  },
});
