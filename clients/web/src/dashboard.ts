import type { AgentdConnection } from '../../typescript/src/browser.js';
import { DashboardConnection } from './connection/dashboard-connection.js';
import { PermissionStore } from './permissions/permission-store.js';
import { SessionFollower } from './session/session-follower.js';
import { SessionsStore } from './sessions/sessions-store.js';
import { announce } from './shell/announcer.js';

/**
 * The page's state: its connection, the session list, the open permission questions and the
 * sessions it follows. `attach` routes what the daemon sends on each new connection to them.
 */
export class Dashboard {
  readonly sessions = new SessionsStore();
  readonly permissions = new PermissionStore();
  readonly connection: DashboardConnection;
  private readonly followers = new Map<string, { follower: SessionFollower; cwd: string }>();

  constructor(url: string) {
    this.connection = new DashboardConnection(url, (client) => this.attach(client));
    this.connection.status.subscribe((status) => {
      if (status === 'connected') void this.onConnected();
      else if (status === 'disconnected') announce('Disconnected from agentd');
    });
  }

  start(): void {
    this.connection.reconnect();
  }

  /** The follower of a session, loading it the first time (and again after each reconnect). */
  follow(sessionId: string, cwd: string): SessionFollower {
    const known = this.followers.get(sessionId);
    if (known) return known.follower;
    const follower = new SessionFollower(sessionId);
    this.followers.set(sessionId, { follower, cwd });
    const client = this.connection.client.value;
    if (client) void follower.load(client, cwd);
    return follower;
  }

  private async onConnected(): Promise<void> {
    announce('Connected to agentd');
    const client = this.connection.client.value;
    if (!client) return;
    await this.sessions.load(client);
    for (const { follower, cwd } of this.followers.values()) void follower.load(client, cwd);
  }

  private attach(client: AgentdConnection): void {
    client.onNotification('session/update', ({ sessionId, update }) => this.followers.get(sessionId)?.follower.receive(update));
    client.onNotification('agentd/event', ({ sessionId, event }) => {
      this.followers.get(sessionId)?.follower.event(event);
      if (event.type === 'permission_resolved') this.permissions.resolved(sessionId, event.toolCallId);
    });
    client.onNotification('agentd/daemonEvent', ({ event }) => {
      if (event.type === 'session_changed' || event.type === 'session_removed') this.sessions.apply(event);
    });
    client.onRequest('session/request_permission', (request, { signal }) => this.permissions.ask(request, signal));
  }
}
