import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, rawGet } from '../../support/dashboard-client.js';
import { APP_JS, SECRET, startDashboardTestBed, type DashboardTestBed } from '../../support/dashboard-test-bed.js';

describe('[F19 browser] the dashboard\'s files', () => {
  let bed: DashboardTestBed;
  let origin: string;
  let cookie: string;
  beforeAll(async () => {
    bed = await startDashboardTestBed();
    const url = await bed.loginUrl();
    origin = new URL(url).origin;
    cookie = (await logIn(url)).cookie;
  });
  afterAll(async () => {
    await bed.close();
  });

  it('serves nothing outside the web root, however the path is spelled', async () => {
    const attempts = [
      '/assets/../secret.txt',
      '/assets/../../secret.txt',
      '/../secret.txt',
      '/secret.txt',
      '/assets/%2e%2e/secret.txt',
      '/assets/%2E%2E/%2E%2E/secret.txt',
      '/assets/..%2fsecret.txt',
      '/assets/..%2Fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/..%5csecret.txt',
      '/assets/..\\secret.txt',
      '/assets/..\\..\\secret.txt',
      '/assets/%252e%252e%252fsecret.txt',
      '/assets/%c0%ae%c0%ae/secret.txt',
      '/assets/app.js%00',
      '/assets/app.js%00.png',
      '/assets/link.txt',
      '/assets/./app.js',
      '/assets//app.js',
      '/assets/.app.js',
      '/assets/',
      '/assets',
      '//secret.txt',
      '/assets/%2Fetc%2Fpasswd',
      '/assets//etc/passwd',
      '/assets/../../../../../../etc/passwd',
      '/index.html/..',
      '/assets/app.js/',
    ];
    for (const path of attempts) {
      const answer = await rawGet(origin, path, { Cookie: cookie });
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain(SECRET);
      expect(answer.body).not.toContain('root:');
    }
  });

  it('serves the assets that are there, and the page on / and /index.html', async () => {
    expect((await rawGet(origin, '/assets/app.js', { Cookie: cookie })).body).toBe(APP_JS);
    expect((await rawGet(origin, '/index.html', { Cookie: cookie })).status).toBe(200);
    expect((await rawGet(origin, '/?from=somewhere', { Cookie: cookie })).status).toBe(200);
  });

  it('says /rpc is the WebSocket when fetched as a page', async () => {
    const answer = await rawGet(origin, '/rpc', { Cookie: cookie });
    expect(answer.status).toBe(426);
  });
});
