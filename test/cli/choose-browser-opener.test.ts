import { describe, expect, it } from 'vitest';
import { chooseBrowserOpener } from '../../src/cli/dashboard/choose-browser-opener.js';

describe('chooseBrowserOpener', () => {
  const display = { DISPLAY: ':0' };
  it('opens with xdg-open on Linux with an X or Wayland display, with open on macOS', () => {
    expect(chooseBrowserOpener({ noOpen: false, isTty: true, platform: 'linux', env: display })).toEqual({ kind: 'open', command: 'xdg-open' });
    expect(chooseBrowserOpener({ noOpen: false, isTty: true, platform: 'freebsd', env: { WAYLAND_DISPLAY: 'wayland-0' } })).toEqual({ kind: 'open', command: 'xdg-open' });
    expect(chooseBrowserOpener({ noOpen: false, isTty: true, platform: 'darwin', env: {} })).toEqual({ kind: 'open', command: 'open' });
  });

  it('stays quiet with --no-open or when a script reads the line', () => {
    expect(chooseBrowserOpener({ noOpen: true, isTty: true, platform: 'linux', env: display })).toEqual({ kind: 'skip', reason: undefined });
    expect(chooseBrowserOpener({ noOpen: false, isTty: false, platform: 'darwin', env: {} })).toEqual({ kind: 'skip', reason: undefined });
  });

  it('says why when there is no display (an ssh session) or no opener for the platform', () => {
    const noDisplay = chooseBrowserOpener({ noOpen: false, isTty: true, platform: 'linux', env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    expect(noDisplay).toEqual({ kind: 'skip', reason: expect.stringMatching(/no display .*open the address above/) });
    expect(chooseBrowserOpener({ noOpen: false, isTty: true, platform: 'win32', env: {} })).toMatchObject({ kind: 'skip', reason: expect.stringMatching(/Windows/) });
  });
});
