import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { sessionErrorToRpc } from '../../src/server/session-error-to-rpc.js';
import { RpcError } from '../../src/server/wire/rpc-error.js';
import { TurnFailedError } from '../../src/session/session-errors.js';

describe('sessionErrorToRpc: a failed turn', () => {
  const rpc = (message: string): RpcError =>
    sessionErrorToRpc('session/prompt', new TurnFailedError(new ProviderError({ kind: 'bad_request', message, provider: 'local', model: 'e2e-model', status: 400 }))) as RpcError;

  it('names the provider once, whether or not its message already starts with it', () => {
    expect(rpc('local 400: The model e2e-model is unavailable').message).toBe('local 400: The model e2e-model is unavailable');
    expect(rpc('the stream ended early').message).toBe('local: the stream ended early');
  });

  it('carries kind, provider, model and status for clients to act on', () => {
    expect(rpc('local 400: nope').toJSON()).toMatchObject({ code: -32014, data: { kind: 'bad_request', provider: 'local', model: 'e2e-model', status: 400 } });
  });
});
