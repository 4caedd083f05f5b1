import type { AgentDefinition } from '../config/agent-definition.js';
import type { TurnSettings } from '../loop/loop-context.js';
import type { SessionRecord } from '../store/store.js';
import type { SessionToolDispatch, ToolHost } from './create-tool-dispatch.js';
import type { RunOverrides } from './run-overrides.js';
import type { SessionServices } from './session-services.js';
import { turnSettings } from './turn-settings.js';

/**
 * A session's services as its directory's configuration is now. The daemon re-reads a
 * project's settings when its files change; a session takes the new services up at its
 * next turn or model request (refresh), and the tool dispatch built from them (permission
 * rules and mode, tool settings) with them. When the directory's configuration cannot be
 * loaded, the last good services stay (the daemon has said why).
 */
export class LiveServices {
  private current: SessionServices;
  private dispatch: { services: SessionServices; tools: SessionToolDispatch } | undefined;
  /** The services the running turn's settings were built from, and its agent. */
  private turnServices: SessionServices | undefined;
  private turnAgent: AgentDefinition | undefined;

  constructor(
    initial: SessionServices,
    private readonly source: () => SessionServices,
  ) {
    this.current = initial;
  }

  /** The services last taken up. */
  get services(): SessionServices {
    return this.current;
  }

  /** Takes up the directory's current services; keeps the last good ones when they cannot be loaded. */
  refresh(): SessionServices {
    try {
      this.current = this.source();
    } catch (error) {
      this.current.log(`keeping the last good configuration of ${this.current.settings.root}: ${(error as Error).message}`);
    }
    return this.current;
  }

  /** Notes the services and agent a turn's settings were built from. */
  turnStarted(services: SessionServices, agent: AgentDefinition): void {
    this.turnServices = services;
    this.turnAgent = agent;
  }

  /**
   * The settings for the running turn's next model request: the same while the services
   * are, but with the tools as they are now (an MCP server that came up since adds its
   * own); rebuilt (agent, model, prompt, tools, limits and tool dispatch) after a reload.
   * Settings the new configuration cannot give (a model no longer configured) leave the
   * turn on its current ones, and `notice` says why.
   */
  async settingsForNextRequest(
    record: SessionRecord,
    current: TurnSettings,
    host: ToolHost,
    notice: (message: string) => void,
    run?: RunOverrides,
  ): Promise<TurnSettings> {
    const services = this.refresh();
    if (services === this.turnServices) {
      return this.turnAgent ? { ...current, tools: services.toolSpecs(record, this.turnAgent) } : current;
    }
    this.turnServices = services;
    try {
      const agent = services.agent(record);
      this.turnAgent = agent;
      const model = services.resolveModel(agent.model ?? record.model);
      await this.useToolsOf(services, host);
      return await turnSettings(services, record, agent, model, { signal: current.signal, requestSignal: current.requestSignal }, run);
    } catch (error) {
      notice(`the reloaded configuration cannot be used for this turn (${(error as Error).message}); it continues with the previous one`);
      return current;
    }
  }

  /** Makes the tool dispatch of `services` the one in use, building it on first use. */
  async useToolsOf(services: SessionServices, host: ToolHost): Promise<void> {
    if (this.dispatch?.services === services) return;
    const tools = await services.toolDispatch(host);
    this.dispatch = { services, tools };
  }

  /** The tool dispatch in use (see useToolsOf). */
  tools(): SessionToolDispatch {
    if (!this.dispatch) throw new Error('the session has no tool dispatch yet: useToolsOf runs before its first turn');
    return this.dispatch.tools;
  }
}
