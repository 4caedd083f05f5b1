import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunDisplay } from '../../src/cli/run/run-display.js';

describe('RunDisplay on a terminal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const terminal = (): { display: RunDisplay; stderr(): string; stdout(): string } => {
    let stderr = '';
    let stdout = '';
    const display = new RunDisplay({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), spinner: true }, false);
    return { display, stderr: () => stderr, stdout: () => stdout };
  };

  it('keeps the spinner turning, with the seconds waited, through updates it does not print', () => {
    const t = terminal();
    t.display.waiting();
    vi.advanceTimersByTime(50);
    // The title update arrives 50 ms into the turn; mode and usage updates come too.
    t.display.update('s', { sessionUpdate: 'session_info_update', title: 'Why the build fails' });
    t.display.update('s', { sessionUpdate: 'current_mode_update', currentModeId: 'build' });
    vi.advanceTimersByTime(2_100);
    expect(t.stderr()).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working… 2s$/);
    expect(t.stdout()).toBe('');
  });

  it('clears the spinner when the answer streams, and for a status line', () => {
    const t = terminal();
    t.display.waiting();
    vi.advanceTimersByTime(250);
    t.display.update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } });
    expect(t.stderr().endsWith('\r\x1b[K')).toBe(true);
    const before = t.stderr();
    vi.advanceTimersByTime(1_000);
    expect(t.stderr()).toBe(before);
    expect(t.stdout()).toBe('Hi');
  });
});
