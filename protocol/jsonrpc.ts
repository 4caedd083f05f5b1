import { z } from 'zod';
import type { ErrorCodeName } from './error-codes.js';

/*
 * JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification) and the error codes
 * agentd answers with. The pre-defined codes are the spec's; -32800 is LSP's and ACP's
 * RequestCancelled; -32000 and -32002 are ACP's (schema.json `ErrorCode`); the rest are
 * agentd's own, inside the spec's -32000..-32099 "server error" range.
 */

export { ErrorCodes, errorCodeName, type ErrorCode, type ErrorCodeName } from './error-codes.js';

/** One line per code: when it is sent and what the caller should do. */
export const ErrorCodeDocs: Record<ErrorCodeName, string> = {
  ParseError: 'The message is not valid JSON. Fix the sender; the connection stays open.',
  InvalidRequest: 'Valid JSON but not a JSON-RPC 2.0 request (missing `jsonrpc: "2.0"`, bad `id`, `method` not a string).',
  MethodNotFound: 'No such method. Check the name against PROTOCOL.md (names are case-sensitive).',
  InvalidParams: 'Params failed validation; `data.issues` names each JSON path (e.g. `prompt[0].type`) and what was expected.',
  InternalError: 'A bug or unexpected failure inside the daemon; the message says what failed.',
  RequestCancelled: 'The request was cancelled by `$/cancel_request`, `$/cancelRequest` or `session/cancel` before it finished.',
  AuthRequired: 'Authenticate first: on TCP, send `initialize` with `_meta.agentd.token` before anything else.',
  ResourceNotFound: 'The named session, tool or other resource does not exist (e.g. an unknown `sessionId`).',
  SessionBusy: 'The session is running a turn: wait, cancel, or prompt with `_meta.agentd.delivery` "steer" or "followUp".',
  FrameTooLarge: 'A message exceeded the frame limit (32 MiB by default, `server.maxFrameBytes`); the connection is closed.',
  Unauthorized: 'The TCP token in `initialize` `_meta.agentd.token` is missing or wrong; the connection is closed.',
  ProviderNotConfigured: 'The chosen model\'s provider has no API key or base URL; set it in config.json or the environment.',
  ProviderError: 'The model provider failed after retries and fallback; `data` carries the provider, status and kind.',
  ToolError: 'A tool could not run (unknown tool, bad arguments, registering client gone); the message says which.',
};

/** Request id: a string or an integer; null only in an error answer to an unreadable request. */
export const RequestIdSchema = z
  .union([z.string(), z.number().int(), z.null()])
  .describe('JSON-RPC request id: string or integer (null only when the request id could not be read).');
export type RequestId = z.infer<typeof RequestIdSchema>;

/** The `error` member of an error response. */
export const JsonRpcErrorSchema = z
  .looseObject({
    code: z.number().int().describe('One of ErrorCodes, or another integer for errors agentd does not define.'),
    message: z.string().describe('One sentence: what went wrong and how to fix it.'),
    data: z.unknown().optional().describe('Structured detail, e.g. `{issues}` for InvalidParams.'),
  })
  .describe('A JSON-RPC error object.');
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>;

/** A request: has an id and expects exactly one response. */
export const JsonRpcRequestSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).describe('Echoed in the response.'),
    method: z.string(),
    params: z.unknown().optional().describe('By-name params (an object) for every agentd method.'),
  })
  .describe('A JSON-RPC request.');
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** A notification: no id, never answered. */
export const JsonRpcNotificationSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    method: z.string(),
    params: z.unknown().optional(),
  })
  .describe('A JSON-RPC notification.');
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

/** A successful response. */
export const JsonRpcSuccessResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]),
    result: z.unknown().describe('The method\'s result; `null` is allowed for methods with nothing to return.'),
  })
  // z.unknown() also accepts a missing key; JSON-RPC requires `result` on success.
  .refine((message) => 'result' in message, { message: 'a response needs `result` or `error`' })
  .describe('A successful JSON-RPC response.');
export type JsonRpcSuccessResponse = z.infer<typeof JsonRpcSuccessResponseSchema>;

/** An error response; `id` is null when the request's id could not be read. */
export const JsonRpcErrorResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: RequestIdSchema,
    error: JsonRpcErrorSchema,
  })
  .describe('An error JSON-RPC response.');
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

/** Any message on the wire. Order matters: a request has both `id` and `method`. */
export const JsonRpcMessageSchema = z
  .union([JsonRpcRequestSchema, JsonRpcNotificationSchema, JsonRpcErrorResponseSchema, JsonRpcSuccessResponseSchema])
  .describe('Any JSON-RPC 2.0 message.');
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

/** The `data` of an InvalidParams (-32602) error. */
export const InvalidParamsDataSchema = z
  .looseObject({
    issues: z
      .array(z.string())
      .describe('One line per problem: `<json path>: <what was expected>`, e.g. `prompt[0].type: Invalid option`.'),
  })
  .describe('Error data of InvalidParams (-32602).');
export type InvalidParamsData = z.infer<typeof InvalidParamsDataSchema>;
