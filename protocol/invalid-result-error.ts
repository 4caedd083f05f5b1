/**
 * A peer answered one of our requests with a result its method's schema refuses. The
 * message names the method, who answered and each problem with its JSON path, so the
 * author of a client can fix it; the caller decides what the call then does.
 */
export class InvalidResultError extends Error {
  override readonly name = 'InvalidResultError';

  constructor(
    readonly method: string,
    readonly peer: string,
    readonly problems: string[],
  ) {
    super(`${peer} answered ${method} with an invalid result: ${problems.join('; ')}`);
  }
}
