/*
 * The error codes agentd answers with, apart from the envelopes' schemas (jsonrpc.ts): a
 * module that builds no schema, so a client bundled for the browser names the codes without
 * carrying zod and every schema with it.
 */

/** Named error codes. Every error answer uses one of these. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
  SessionBusy: -32010,
  FrameTooLarge: -32011,
  Unauthorized: -32012,
  ProviderNotConfigured: -32013,
  ProviderError: -32014,
  ToolError: -32015,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;
export type ErrorCode = (typeof ErrorCodes)[ErrorCodeName];

/** Look up a code's name, e.g. for logs; undefined for codes agentd does not define. */
export function errorCodeName(code: number): ErrorCodeName | undefined {
  for (const [name, value] of Object.entries(ErrorCodes)) {
    if (value === code) return name as ErrorCodeName;
  }
  return undefined;
}
