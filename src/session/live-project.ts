import type { AgentDefinition } from '../config/agent-definition.js';
import type { TurnSettings } from '../loop/loop-context.js';
import type { Project } from '../project/project.js';
import type { SessionToolDispatch, ToolHost } from '../project/project-tools.js';
import type { RunOverrides } from '../project/run-overrides.js';
import type { SessionRecord } from '../store/store.js';

/** A project as of one version. */
interface Seen {
  project: Project;
  version: number;
}

/**
 * A session's project as its directory's configuration is now. The daemon raises a
 * project's version when one of its files changes; a session takes the change up at its
 * next turn or model request (refresh), and the tool dispatch built from it (permission
 * rules, tool settings) with it. When the directory's configuration cannot be loaded,
 * the last good project stays (the daemon has said why).
 */
export class LiveProject {
  private current: Project;
  private dispatch: (Seen & { tools: SessionToolDispatch }) | undefined;
  /** A dispatch being built: a second caller meanwhile (a warm-up and a prompt) waits for the same one. */
  private building: (Seen & { done: Promise<void> }) | undefined;
  /** The project version the running turn's settings were built from, and its agent. */
  private turnSeen: Seen | undefined;
  private turnAgent: AgentDefinition | undefined;

  constructor(
    initial: Project,
    private readonly source: () => Project,
  ) {
    this.current = initial;
  }

  /** The project last taken up. */
  get project(): Project {
    return this.current;
  }

  /** Takes up the directory's project as it is now; keeps the last good one when it cannot be loaded. */
  refresh(): Project {
    try {
      this.current = this.source();
    } catch (error) {
      this.current.log(`keeping the last good configuration of ${this.current.root}: ${(error as Error).message}`);
    }
    return this.current;
  }

  /** Notes the project version and agent a turn's settings were built from. */
  turnStarted(project: Project, agent: AgentDefinition): void {
    this.turnSeen = { project, version: project.version };
    this.turnAgent = agent;
  }

  /**
   * The settings for the running turn's next model request: the same while the project's
   * version is, but with the tools as they are now (an MCP server that came up since adds
   * its own); rebuilt (agent, model, prompt, tools, limits and tool dispatch) after a
   * change. Settings the new configuration cannot give (a model no longer configured)
   * leave the turn on its current ones, and `notice` says why.
   */
  async settingsForNextRequest(
    record: SessionRecord,
    current: TurnSettings,
    host: ToolHost,
    notice: (message: string) => void,
    run?: RunOverrides,
  ): Promise<TurnSettings> {
    const project = this.refresh();
    if (isSeen(this.turnSeen, project)) {
      return this.turnAgent ? { ...current, tools: project.toolSpecs(record, this.turnAgent) } : current;
    }
    this.turnSeen = { project, version: project.version };
    try {
      const agent = project.agent(record);
      this.turnAgent = agent;
      const model = project.resolveModel(agent.model ?? record.model);
      await this.useToolsOf(project, host);
      return await project.turnSettings(record, agent, model, { signal: current.signal, requestSignal: current.requestSignal }, run);
    } catch (error) {
      notice(`the reloaded configuration cannot be used for this turn (${(error as Error).message}); it continues with the previous one`);
      return current;
    }
  }

  /** Makes the tool dispatch of the project's current version the one in use, building it on first use. */
  async useToolsOf(project: Project, host: ToolHost): Promise<void> {
    if (isSeen(this.dispatch, project)) return;
    if (this.building !== undefined && isSeen(this.building, project)) return this.building.done;
    const version = project.version;
    const done = project.toolDispatch(host).then((tools) => void (this.dispatch = { project, version, tools }));
    this.building = { project, version, done };
    try {
      await done;
    } finally {
      if (this.building?.done === done) this.building = undefined;
    }
  }

  /** The tool dispatch in use (see useToolsOf). */
  tools(): SessionToolDispatch {
    if (!this.dispatch) throw new Error('the session has no tool dispatch yet: useToolsOf runs before its first turn');
    return this.dispatch.tools;
  }
}

function isSeen(seen: Seen | undefined, project: Project): boolean {
  return seen !== undefined && seen.project === project && seen.version === project.version;
}
