/** The program that opens the login address, or why none is run. */
export type BrowserOpener = { kind: 'open'; command: string } | { kind: 'skip'; reason: string | undefined };

/**
 * Whether `agentd dashboard` opens a browser, and with what: never with `--no-open`; never
 * when stdout is not a terminal (a script is reading the printed line, and may run where no
 * one looks at a screen); on Linux and the BSDs only with a display (DISPLAY or
 * WAYLAND_DISPLAY: over ssh there is none, and xdg-open would start a text browser in the
 * terminal); `open` on macOS, `xdg-open` elsewhere. The reason is told on stderr, except for
 * `--no-open`, which asked for silence.
 */
export function chooseBrowserOpener(input: { noOpen: boolean; isTty: boolean; platform: NodeJS.Platform; env: NodeJS.ProcessEnv }): BrowserOpener {
  if (input.noOpen) return { kind: 'skip', reason: undefined };
  if (!input.isTty) return { kind: 'skip', reason: undefined };
  if (input.platform === 'darwin') return { kind: 'open', command: 'open' };
  if (input.platform === 'win32') return { kind: 'skip', reason: 'opening a browser is not supported on Windows: open the address above' };
  if (!input.env.DISPLAY && !input.env.WAYLAND_DISPLAY) {
    return { kind: 'skip', reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset): open the address above in a browser on this machine' };
  }
  return { kind: 'open', command: 'xdg-open' };
}
