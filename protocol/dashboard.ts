import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';

/*
 * The web dashboard (agentd extension): the daemon serves a page over HTTP on loopback
 * whose WebSocket speaks this same protocol. A browser gets in only through a login
 * address minted here, by a client that could already reach the daemon.
 */

/** `dashboard/login` params (none). */
export const DashboardLoginRequestSchema = z.strictObject({}).describe('Params of `dashboard/login` (none).');
export type DashboardLoginRequest = z.infer<typeof DashboardLoginRequestSchema>;

export const DashboardLoginResponseSchema = z
  .strictObject({
    url: z
      .string()
      .describe('`http://HOST:PORT/login?token=…`: opening it once in a browser exchanges the token for a session cookie and shows the page.'),
    expiresAt: z.string().describe('When the token stops being accepted (10 minutes after it was minted), ISO 8601 UTC.'),
  })
  .describe('Result of `dashboard/login`.');
export type DashboardLoginResponse = z.infer<typeof DashboardLoginResponseSchema>;

export const dashboardLoginMethod = defineMethod({
  method: 'dashboard/login',
  clientMethod: 'dashboardLogin',
  direction: 'client-to-daemon',
  kind: 'request',
  params: DashboardLoginRequestSchema,
  result: DashboardLoginResponseSchema,
  summary:
    'Mints a single-use login address for the web dashboard (valid 10 minutes), serving HTTP first when the daemon serves none (`server.http`, or 127.0.0.1 on a port the OS picks); refused on the page\'s own WebSocket (`agentd dashboard`).',
  acp: false,
  feature: 'dashboard',
  errors: [ErrorCodes.Unauthorized, ErrorCodes.InternalError],
  example: {
    params: {},
    result: {
      url: 'http://127.0.0.1:7780/login?token=Q2hhbmdlIG1lOiBhIHJhbmRvbSB0b2tlbiBnb2VzIGhlcmUu',
      expiresAt: '2026-11-26T08:10:00.000Z',
    },
  },
});
