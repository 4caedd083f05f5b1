import { describe, expect, it } from 'vitest';
import { readyBodyReading } from '../../../src/providers/http/post-stream.js';

describe('readyBodyReading: the body-reading path run once on a sample, before a first reply', () => {
  it('reads its sample to the end and leaves no timer or handle behind, however often it is called', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    readyBodyReading();
    readyBodyReading();
    // The sample ends at once; its idle watchdog is stopped with it.
    await expect.poll(timers).toBe(before);
  });
});
