import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createCopilotModel } from '../../../src/providers/copilot/copilot-model.js';
import { CopilotTokenSource } from '../../../src/providers/copilot/copilot-token-source.js';
import { writeCopilotLogin } from '../../support/copilot-login-file.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn } from '../../support/github-stand-in.js';

/**
 * The Copilot transcripts of test/fixtures/copilot/ (sources in its README) through the real
 * Copilot model: the token exchanged at a GitHub stand-in, whose token names the replay
 * server as the seat's endpoint.
 */
let github: GitHubStandIn;
let home: string;
let loginFile: string;
let chatUrl = '';

beforeAll(async () => {
  github = await startGitHubStandIn({ exchange: () => copilotTokenAnswer(chatUrl) });
  home = mkdtempSync(join(tmpdir(), 'agentd-copilot-'));
  loginFile = await writeCopilotLogin({ AGENTD_HOME: home }, github.url);
});
afterAll(async () => {
  await github.close();
  rmSync(home, { recursive: true, force: true });
});

describeFixtureReplays({
  protocol: 'copilot',
  minimum: 2,
  request: { model: '', system: [{ text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Which port?' }] }], tools: [] },
  createModel(baseUrl) {
    chatUrl = baseUrl;
    return createCopilotModel({ provider: 'copilot', modelId: 'gpt-4o', baseUrl: 'https://api.githubcopilot.com', tokens: new CopilotTokenSource({ loginFile, provider: 'copilot' }) });
  },
});
