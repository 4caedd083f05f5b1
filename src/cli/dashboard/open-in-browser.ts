import { spawn } from 'node:child_process';

/**
 * Runs the opener detached with the address and returns once it has started (or failed to):
 * the browser outlives this command. Resolves with why it could not start, if it could not.
 */
export function openInBrowser(command: string, url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.once('error', (error: NodeJS.ErrnoException) => resolve(`could not run ${command} (${error.code ?? error.message}): open the address above in a browser`));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
