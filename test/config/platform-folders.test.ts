import { describe, expect, it } from 'vitest';
import { platformFolders } from '../../src/config/platform-folders.js';

// The rules of env-paths (test/config/agentd-paths.test.ts compares with it on those platforms).
describe('platformFolders', () => {
  it('puts config in Preferences and data in Application Support under the given home on macOS', () => {
    expect(platformFolders('darwin', {}, '/Users/me', 'agentd')).toEqual({
      config: '/Users/me/Library/Preferences/agentd',
      data: '/Users/me/Library/Application Support/agentd',
    });
  });

  it('takes APPDATA and LOCALAPPDATA on Windows, and their defaults under the given home without them', () => {
    const env = { APPDATA: 'D:\\Roaming', LOCALAPPDATA: 'D:\\Local' };
    expect(platformFolders('win32', env, 'C:\\Users\\me', 'agentd')).toEqual({ config: 'D:\\Roaming\\agentd\\Config', data: 'D:\\Local\\agentd\\Data' });
    expect(platformFolders('win32', { APPDATA: '' }, 'C:\\Users\\me', 'agentd')).toEqual({
      config: 'C:\\Users\\me\\AppData\\Roaming\\agentd\\Config',
      data: 'C:\\Users\\me\\AppData\\Local\\agentd\\Data',
    });
  });
});
