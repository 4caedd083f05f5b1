import type { SessionToolDispatch, ToolHost } from './create-tool-dispatch.js';
import type { SessionServices } from './session-services.js';

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
