import { buildSystemPrompt, BUILD_ROLE_PROMPT } from '../loop/build-system-prompt.js';
import type { LanguageModel } from '../providers/language-model.js';
import type { Usage } from '../providers/usage.js';
import { ModelNotConfiguredError } from './model-not-configured-error.js';
import { runSessionTools, type ToolRuntimeOptions } from './run-session-tools.js';
import type { SessionServices } from './session-services.js';

/** What the daemon knows about a model, for context and cost accounting. */
export interface ModelFacts {
  contextWindow: number;
  maxOutputTokens?: number;
  price(usage: Usage): number;
}

export interface SessionServicesOptions {
  /** `provider/model` used when a session has not chosen one; undefined when none is configured. */
  defaultModel: string | undefined;
  /** Builds the model for `provider/model`; throws with a clear message when it cannot. */
  createModel(ref: string): LanguageModel;
  modelFacts(ref: string): ModelFacts;
  /** Explains how to configure a provider, for the error when none is. */
  setupHelp: string;
  maxTurns: number;
  log(line: string): void;
  /** Tools, permissions and hooks for every session. */
  tools: ToolRuntimeOptions;
}

/** Wires config, providers and the model catalog into what sessions need. */
export function createSessionServices(options: SessionServicesOptions): SessionServices {
  return {
    maxTurns: options.maxTurns,
    log: options.log,
    resolveModel(sessionModel) {
      const ref = sessionModel ?? options.defaultModel;
      if (!ref) throw new ModelNotConfiguredError(`no model is configured.\n${options.setupHelp}`);
      let model: LanguageModel;
      try {
        model = options.createModel(ref);
      } catch (error) {
        throw new ModelNotConfiguredError(`model ${ref} cannot be used: ${(error as Error).message}`);
      }
      const facts = options.modelFacts(ref);
      return {
        ref,
        model,
        contextWindow: facts.contextWindow,
        ...(facts.maxOutputTokens !== undefined ? { maxTokens: facts.maxOutputTokens } : {}),
        price: facts.price,
      };
    },
    buildSystemPrompt(record) {
      return buildSystemPrompt({ rolePrompt: BUILD_ROLE_PROMPT, cwd: record.cwd });
    },
    toolSpecs(record) {
      return options.tools.registry.specs({ sessionId: record.id });
    },
    runTools(session, calls, _message, signal) {
      return runSessionTools(session, calls, signal, options.tools);
    },
  };
}
