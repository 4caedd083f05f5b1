import type { CopilotLogin } from '../../config/copilot-login.js';
import { readCopilotLogin } from '../../config/read-copilot-login.js';
import { ProviderError } from '../provider-error.js';
import { exchangeCopilotToken, type CopilotApiToken } from './exchange-copilot-token.js';

export interface CopilotTokenSourceOptions {
  /** `<stateDir>/copilot.json`, written by `agentd login copilot`. */
  loginFile: string;
  /** Provider id named in errors. */
  provider: string;
  /** The clock, in epoch milliseconds (tests move it past a refresh time). */
  now?: () => number;
}

/**
 * The Copilot API token for every request of one login: read the stored GitHub token,
 * exchange it, keep the answer, and exchange again once its refresh time has come (before it
 * expires). Concurrent requests share one exchange. The login file is read on every call
 * (it is tiny), so a new `agentd login copilot` or a removed file takes effect at once.
 */
export class CopilotTokenSource {
  private readonly options: CopilotTokenSourceOptions;
  private current: { token: CopilotApiToken; githubToken: string } | undefined;
  private pending: { promise: Promise<CopilotApiToken>; githubToken: string } | undefined;

  constructor(options: CopilotTokenSourceOptions) {
    this.options = options;
  }

  /** A token valid now; failures are ProviderErrors of one line (not logged in, refused, rate limited). */
  async token(model: string, signal: AbortSignal): Promise<CopilotApiToken> {
    const login = this.login(model);
    const now = this.options.now?.() ?? Date.now();
    const current = this.current;
    if (current !== undefined && current.githubToken === login.githubToken && now < current.token.refreshAt) return current.token;
    if (this.pending === undefined || this.pending.githubToken !== login.githubToken) {
      const promise = this.refresh(login, model);
      const pending = { promise, githubToken: login.githubToken };
      this.pending = pending;
      // Cleared when settled, so a failure is not remembered: the next request tries again.
      void promise.then(
        () => this.clear(pending),
        () => this.clear(pending),
      );
    }
    return untilAborted(this.pending.promise, signal, this.options.provider, model);
  }

  /** Forget `token` when it is the one kept: Copilot refused it, so the next request exchanges again. */
  invalidate(token: string): void {
    if (this.current?.token.token === token) this.current = undefined;
  }

  private clear(pending: CopilotTokenSource['pending']): void {
    if (this.pending === pending) this.pending = undefined;
  }

  private async refresh(login: CopilotLogin, model: string): Promise<CopilotApiToken> {
    // Not the caller's signal: the exchange is shared, and one caller's abort must not fail the others.
    const token = await exchangeCopilotToken({
      provider: this.options.provider,
      model,
      githubUrl: login.githubUrl,
      githubToken: login.githubToken,
      signal: new AbortController().signal,
      now: this.options.now?.() ?? Date.now(),
    });
    this.current = { token, githubToken: login.githubToken };
    return token;
  }

  private login(model: string): CopilotLogin {
    try {
      return readCopilotLogin(this.options.loginFile);
    } catch (error) {
      this.current = undefined;
      throw new ProviderError({ provider: this.options.provider, model, kind: 'auth', message: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** One source per login file, shared by every model of every provider reading it. */
const sources = new Map<string, CopilotTokenSource>();

export function copilotTokenSource(loginFile: string, provider: string): CopilotTokenSource {
  let source = sources.get(loginFile);
  if (source === undefined) {
    source = new CopilotTokenSource({ loginFile, provider });
    sources.set(loginFile, source);
  }
  return source;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, provider: string, model: string): Promise<T> {
  const aborted = (): ProviderError => new ProviderError({ provider, model, kind: 'aborted', message: `${provider}: the request was aborted` });
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
