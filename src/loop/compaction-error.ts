import type { ProviderError } from '../providers/provider-error.js';

/**
 * Compaction failed; the history is unchanged. `providerError` is the vendor failure when
 * the summary call failed, absent when the model answered with nothing usable.
 */
export class CompactionError extends Error {
  override readonly name = 'CompactionError';
  readonly providerError: ProviderError | undefined;

  constructor(message: string, providerError?: ProviderError) {
    super(message, providerError !== undefined ? { cause: providerError } : undefined);
    this.providerError = providerError;
  }

  /** The user cancelled during the summary call: not a failure to count against compaction. */
  get aborted(): boolean {
    return this.providerError?.kind === 'aborted';
  }
}
