import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { basePaths, isolatedEnv, models, modules, type Contender } from './contenders.js';

/**
 * The ACP agents an editor user would otherwise plug in, installed from npm into
 * bench/node_modules, each pointed at the loopback vendor with its telemetry and update
 * checks off. The facts (variables, config keys) come from each package's own code and
 * docs as installed; where each was read is named beside it.
 */

/**
 * codex-acp (@zed-industries/codex-acp 0.16, a Rust binary in codex-acp-linux-x64). Codex reads
 * `$CODEX_HOME/config.toml`; a custom provider is `[model_providers.<id>]` with `base_url`,
 * `wire_api`, `env_key` (the ModelProviderInfo fields named in the binary's strings). Its
 * only wire is the Responses API: the binary says "`wire_api = \"chat\"` is no longer
 * supported". `check_for_update_on_startup` and `[analytics] enabled` are ConfigToml keys there too.
 */
export const codexAcp: Contender = {
  name: 'codex-acp',
  protocol: 'openai-responses',
  launch(home, vendorUrl) {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        // A slug of the model catalog bundled in the binary ("slug": "gpt-5.4-mini"): for one it
        // does not know, codex-acp sends a "Model metadata … not found" warning as answer text.
        'model = "gpt-5.4-mini"',
        'model_provider = "bench"',
        'check_for_update_on_startup = false',
        '[analytics]',
        'enabled = false',
        '[model_providers.bench]',
        'name = "bench"',
        `base_url = "${vendorUrl}${basePaths['openai-responses']}"`,
        'wire_api = "responses"',
        'env_key = "BENCH_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        'supports_websockets = false',
        '',
      ].join('\n'),
    );
    return {
      command: join(modules, '@zed-industries/codex-acp-linux-x64/bin/codex-acp'),
      args: [],
      env: { ...isolatedEnv(home), CODEX_HOME: codexHome, BENCH_API_KEY: 'bench' },
    };
  },
};

/**
 * Claude Code's ACP adapter (@zed-industries/claude-code-acp 0.16, dist/index.js), which runs
 * Claude Code through @anthropic-ai/claude-agent-sdk (its cli.js, a child node process).
 * CLAUDE_CONFIG_DIR: dist/acp-agent.js. ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY, the model
 * variables and the traffic switches (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, DISABLE_TELEMETRY,
 * DISABLE_AUTOUPDATER, DISABLE_ERROR_REPORTING) are Claude Code's documented environment
 * (read by the SDK's cli.js).
 */
export const claudeCodeAcp: Contender = {
  name: 'claude-code-acp',
  protocol: 'anthropic-messages',
  launch(home, vendorUrl) {
    const configDir = join(home, '.claude');
    mkdirSync(configDir, { recursive: true });
    return {
      command: process.execPath,
      args: [join(modules, '@zed-industries/claude-code-acp/dist/index.js')],
      env: {
        ...isolatedEnv(home),
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: `${vendorUrl}${basePaths['anthropic-messages']}`,
        ANTHROPIC_API_KEY: 'bench',
        ANTHROPIC_MODEL: models['anthropic-messages'],
        ANTHROPIC_SMALL_FAST_MODEL: 'claude-haiku-4-5',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    };
  },
};

/**
 * gemini-cli (@google/gemini-cli 0.61, bundle/gemini.js) in ACP mode (`--acp`,
 * bundle/docs/cli/acp-mode.md). GEMINI_CLI_HOME roots its `.gemini` folder
 * (docs/reference/configuration.md); GOOGLE_GEMINI_BASE_URL is the base-URL override of its
 * content generator (createContentGenerator in the bundle's chunk-5FZXKDXH.js, which passes
 * it to @google/genai as httpOptions.baseUrl). Settings keys: general.enableAutoUpdate,
 * general.enableAutoUpdateNotification, privacy.usageStatisticsEnabled, telemetry.enabled,
 * security.auth.selectedType, security.folderTrust.enabled, model.name (configuration.md).
 */
export const geminiCli: Contender = {
  name: 'gemini-cli',
  protocol: 'gemini',
  launch(home, vendorUrl) {
    const geminiDir = join(home, '.gemini');
    mkdirSync(geminiDir, { recursive: true });
    const settings = {
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      model: { name: models.gemini },
    };
    writeFileSync(join(geminiDir, 'settings.json'), JSON.stringify(settings, null, 2));
    return {
      command: process.execPath,
      args: [join(modules, '@google/gemini-cli/bundle/gemini.js'), '--acp'],
      env: { ...isolatedEnv(home), GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: `${vendorUrl}${basePaths.gemini}` },
    };
  },
};

/**
 * opencode (opencode-ai 1.18, a Bun-compiled binary; the package's postinstall that picks
 * the platform binary was not run, so the binary is started directly from
 * opencode-linux-x64/bin). `opencode acp` is its ACP entry point. Config: opencode.json at
 * OPENCODE_CONFIG with an OpenAI-compatible provider (`provider.<id>.npm`
 * "@ai-sdk/openai-compatible", `options.baseURL`, `models`), `autoupdate`, `share`; the
 * OPENCODE_DISABLE_* switches are read by the binary (its strings name them).
 */
export const opencode: Contender = {
  name: 'opencode',
  protocol: 'openai-chat',
  launch(home, vendorUrl) {
    const configFile = join(home, 'opencode.json');
    const model = models['openai-chat'];
    const config = {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: `bench/${model}`,
      small_model: `bench/${model}`,
      provider: {
        bench: {
          npm: '@ai-sdk/openai-compatible',
          name: 'bench',
          options: { baseURL: `${vendorUrl}${basePaths['openai-chat']}`, apiKey: 'bench' },
          models: { [model]: { name: model } },
        },
      },
    };
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    return {
      command: join(modules, 'opencode-linux-x64/bin/opencode'),
      args: ['acp'],
      env: {
        ...isolatedEnv(home),
        OPENCODE_CONFIG: configFile,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      },
    };
  },
};
