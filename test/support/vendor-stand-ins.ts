import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCopilotLogin } from './copilot-login-file.js';
import { daemonEnv } from './daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn } from './github-stand-in.js';
import { loadFixture } from './load-fixture.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

/** One way of reaching a model, answered from the loopback replay server with its recorded wire. */
export interface VendorStandIn {
  /** `provider/model` as config and the fallback event name it. */
  ref: string;
  /** The protocol the stored reasoning is tagged with. */
  protocol: string;
  /** Queue the vendor's "unavailable" answer: an error that justifies a fallback. */
  unavailable(replay: ReplayServer): void;
  /** Queue a recorded answer (with reasoning where the vendor has a transcript of it). */
  answer(replay: ReplayServer): void;
  /** Whether that answer carries reasoning. */
  reasons: boolean;
  /** Queue a recorded answer that calls tools (`read` where the vendor has such a transcript; a tool agentd lacks gets an error result, which crosses all the same). */
  toolCall(replay: ReplayServer): void;
}

export const VENDOR_NAMES = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini', 'cohere', 'bedrock', 'vertex-claude', 'vertex-gemini', 'copilot'] as const;
export type VendorName = (typeof VENDOR_NAMES)[number];

function serveFixture(replay: ReplayServer, protocol: string, scenario: string): void {
  const fixture = loadFixture(protocol, scenario);
  replay.enqueue({ status: fixture.expected.status ?? 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes });
}

/** OpenAI's 503 (https://platform.openai.com/docs/guides/error-codes: "The server is overloaded or not ready yet."), which Copilot's API also answers in this form. */
function serveOpenAIUnavailable(replay: ReplayServer): void {
  replay.enqueue({
    status: 503,
    headers: { 'content-type': 'application/json' },
    body: '{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":null}}',
  });
}

/** Bedrock's answer when the service is busy (ConverseStream "Errors": ServiceUnavailableException, 503). */
function serveBedrockUnavailable(replay: ReplayServer): void {
  replay.enqueue({
    status: 503,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceUnavailableException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
    body: '{"message":"Bedrock is unable to process your request."}',
  });
}

const fixture = (protocol: string, scenario: string) => (replay: ReplayServer) => serveFixture(replay, protocol, scenario);

/** Each vendor's stand-in; Vertex's front end answers a busy model in Google's error form for both publishers (the Gemini 503 transcript). */
export const VENDORS: Record<VendorName, VendorStandIn> = {
  'anthropic-messages': {
    ref: 'anthropic/claude-sonnet-4-5-20250929', protocol: 'anthropic-messages',
    unavailable: fixture('anthropic-messages', 'http-529-overloaded-error'), answer: fixture('anthropic-messages', 'thinking-with-signature'), toolCall: fixture('anthropic-messages', 'two-tool-calls'), reasons: true,
  },
  'openai-chat': {
    ref: 'deepseek/deepseek-reasoner', protocol: 'openai-chat',
    unavailable: serveOpenAIUnavailable, answer: fixture('openai-chat', 'reasoning-content-deepseek'), toolCall: fixture('openai-chat', 'stop-after-tool-calls'), reasons: true,
  },
  'openai-responses': {
    ref: 'openai/gpt-5.1', protocol: 'openai-responses',
    unavailable: serveOpenAIUnavailable, answer: fixture('openai-responses', 'reasoning-summary-encrypted-content'), toolCall: fixture('openai-responses', 'two-tool-calls'), reasons: true,
  },
  gemini: {
    ref: 'gemini/gemini-2.5-flash', protocol: 'gemini',
    unavailable: fixture('gemini', 'http-503-unavailable'), answer: fixture('gemini', 'thought-parts'), toolCall: fixture('gemini', 'function-call-with-thought-signature'), reasons: true,
  },
  cohere: {
    ref: 'cohere/command-a-reasoning-08-2025', protocol: 'cohere',
    unavailable: fixture('cohere', 'http-503-service-unavailable'), answer: fixture('cohere', 'reasoning-thinking-then-text'), toolCall: fixture('cohere', 'e2e-read-tool-call'), reasons: true,
  },
  bedrock: {
    ref: 'bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0', protocol: 'bedrock',
    unavailable: serveBedrockUnavailable, answer: fixture('bedrock', 'text-with-reasoning'), toolCall: fixture('bedrock', 'tool-use-read'), reasons: true,
  },
  'vertex-claude': {
    ref: 'vtx/claude-sonnet-4-5@20250929', protocol: 'anthropic-messages',
    unavailable: fixture('gemini', 'http-503-unavailable'), answer: fixture('vertex/claude', 'text'), toolCall: fixture('vertex/claude', 'tool-use'), reasons: false,
  },
  'vertex-gemini': {
    ref: 'vtx/gemini-2.5-flash', protocol: 'gemini',
    unavailable: fixture('gemini', 'http-503-unavailable'), answer: fixture('vertex/gemini', 'text'), toolCall: fixture('vertex/gemini', 'function-call'), reasons: false,
  },
  copilot: {
    ref: 'copilot/gpt-4o', protocol: 'openai-chat',
    unavailable: serveOpenAIUnavailable, answer: fixture('copilot', 'text-answer'), toolCall: fixture('copilot', 'tool-call'), reasons: false,
  },
};

/** The loopback servers and files every vendor needs beside the replay server, and the daemon's config and env for them. */
export interface VendorBed {
  replay: ReplayServer;
  /** config.json's `providers`, every vendor pointed at the loopback servers, none retrying. */
  providers: Record<string, Record<string, unknown>>;
  /** Writes what the daemon's env needs (the Copilot login under `home`) and returns that env. */
  env(home: string): Promise<NodeJS.ProcessEnv>;
  close(): Promise<void>;
}

/**
 * The stand-ins the providers' own tests use, together: the replay server for every wire,
 * a Google token endpoint for Vertex's Application Default Credentials (an authorized_user
 * file), GitHub's Copilot token exchange naming the replay server as the API, and static
 * AWS keys for Bedrock's signing.
 */
export async function startVendorBed(): Promise<VendorBed> {
  const replay = await startReplayServer();
  const tokenEndpoint = await startReplayServer({
    respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.matrix","expires_in":3599,"token_type":"Bearer"}' }),
  });
  const github = await startGitHubStandIn({ exchange: () => copilotTokenAnswer(replay.url, { token: 'tid=copilot-matrix' }) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vendors-'));
  const credentialsFile = path.join(dir, 'adc.json');
  fs.writeFileSync(credentialsFile, JSON.stringify({ type: 'authorized_user', client_id: 'matrix.apps.googleusercontent.com', client_secret: 'matrix-secret', refresh_token: '1//0gMatrix', token_uri: `${tokenEndpoint.url}/token` }));
  const url = replay.url;
  return {
    replay,
    providers: {
      anthropic: { type: 'anthropic-messages', baseUrl: url, apiKey: 'sk-ant-test-key-0000', maxRetries: 0 },
      deepseek: { type: 'openai-chat', baseUrl: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 },
      openai: { type: 'openai-responses', baseUrl: `${url}/v1`, apiKey: 'sk-test-key-123456', maxRetries: 0 },
      gemini: { type: 'gemini', baseUrl: url, apiKey: 'AIzaSyReplayTestKey000000000000000000', maxRetries: 0 },
      cohere: { type: 'cohere', baseUrl: url, apiKey: 'co-test-key-0000', maxRetries: 0 },
      bedrock: { type: 'bedrock', baseUrl: url, region: 'us-east-1', maxRetries: 0 },
      vtx: { type: 'vertex', baseUrl: url, project: 'agentd-test', location: 'global', credentialsFile, maxRetries: 0 },
      copilot: { type: 'copilot', maxRetries: 0 },
    },
    async env(home) {
      const env = daemonEnv(home, { HOME: home, AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' });
      for (const name of ['AWS_PROFILE', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_SESSION_TOKEN', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE', 'GOOGLE_APPLICATION_CREDENTIALS']) delete env[name];
      await writeCopilotLogin(env, github.url);
      return env;
    },
    async close() {
      await replay.close();
      await tokenEndpoint.close();
      await github.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
