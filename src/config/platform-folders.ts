import path from 'node:path';

/**
 * The conventional config and data folders of macOS and Windows for `app` (env-paths'
 * `config` and `data`, whose rules these are), computed per call from the `home` and `env`
 * given. Not env-paths itself: it reads the home folder as it is loaded, and the start-up
 * snapshot loads its modules at build time, so a daemon started from it would keep the
 * home of whoever built the snapshot.
 */
export function platformFolders(platform: 'darwin' | 'win32', env: NodeJS.ProcessEnv, home: string, app: string): { config: string; data: string } {
  if (platform === 'darwin') {
    const library = path.posix.join(home, 'Library');
    return { config: path.posix.join(library, 'Preferences', app), data: path.posix.join(library, 'Application Support', app) };
  }
  const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
  const localAppData = env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local');
  return { config: path.win32.join(appData, app, 'Config'), data: path.win32.join(localAppData, app, 'Data') };
}
