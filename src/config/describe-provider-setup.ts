import type { AgentdPaths } from './agentd-paths.js';

/** The ways to configure a model provider, for errors shown when none is. */
export function describeProviderSetup(paths: AgentdPaths): string {
  return [
    'Configure a model provider in one of these ways:',
    '  1. An API key in the environment, and the model to use:',
    '       export ANTHROPIC_API_KEY=...   (or OPENAI_API_KEY, GEMINI_API_KEY, DEEPSEEK_API_KEY, ...)',
    '       agentd run --model anthropic/claude-sonnet-4-5 "hello"',
    `  2. A config file at ${paths.configFile}:`,
    '       { "model": "openai/gpt-4.1", "providers": { "openai": { "apiKey": "..." } } }',
    '  3. A local OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp):',
    '       { "model": "local/qwen3:8b",',
    '         "providers": { "local": { "type": "openai-chat", "baseUrl": "http://127.0.0.1:11434/v1" } } }',
    '     or: export OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=qwen3:8b',
  ].join('\n');
}
