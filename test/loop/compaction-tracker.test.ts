import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/provider-error.js';
import { CompactionError } from '../../src/loop/compaction-error.js';
import { CompactionTracker, MAX_COMPACTION_FAILURES } from '../../src/loop/compaction-tracker.js';

const failure = (message: string): CompactionError =>
  new CompactionError(message, new ProviderError({ kind: 'context_overflow', message, provider: 'p' }));

describe('CompactionTracker', () => {
  it('disables compaction after three failures in a row and returns the notice once', () => {
    const tracker = new CompactionTracker();
    expect(MAX_COMPACTION_FAILURES).toBe(3);
    expect(tracker.recordFailure(failure('one'))).toBeUndefined();
    expect(tracker.recordFailure(failure('two'))).toBeUndefined();
    expect(tracker.disabled).toBe(false);
    expect(tracker.notice).toBeUndefined();
    const notice = tracker.recordFailure(failure('prompt is too long'));
    expect(tracker.disabled).toBe(true);
    expect(notice).toContain('Automatic compaction is off for this session');
    expect(notice).toContain('failed 3 times in a row');
    expect(notice).toContain('last error: prompt is too long');
    expect(tracker.notice).toBe(notice);
    expect(tracker.recordFailure(failure('four'))).toBeUndefined();
    expect(tracker.consecutiveFailures).toBe(3);
  });

  it('starts counting again after a success', () => {
    const tracker = new CompactionTracker();
    tracker.recordFailure(failure('one'));
    tracker.recordFailure(failure('two'));
    tracker.recordSuccess();
    expect(tracker.consecutiveFailures).toBe(0);
    tracker.recordFailure(failure('three'));
    tracker.recordFailure(new Error('plain errors count too'));
    expect(tracker.disabled).toBe(false);
  });

  it('does not count a summary call the user cancelled', () => {
    const tracker = new CompactionTracker();
    const aborted = new CompactionError('cancelled', new ProviderError({ kind: 'aborted', message: 'aborted', provider: 'p' }));
    for (let i = 0; i < 5; i++) expect(tracker.recordFailure(aborted)).toBeUndefined();
    expect(tracker.consecutiveFailures).toBe(0);
    expect(tracker.disabled).toBe(false);
  });
});
