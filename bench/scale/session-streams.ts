import { performance } from 'node:perf_hooks';
import type { MessageConnection } from 'vscode-jsonrpc/node.js';
import { sessionPieces } from './tagged-chat-server.js';

/** What one session's client saw of its answer. */
interface Received {
  text: string;
  chunks: number;
  /** performance.now() at its first and last chunk. */
  firstAt: number;
  lastAt: number;
}

/**
 * Collects `agent_message_chunk` text per session from the connections it is given. An
 * update for a session the connection did not create is counted as crossed (a session's
 * stream reaching a client that does not follow it).
 */
export class SessionStreams {
  private readonly received = new Map<string, Received>();
  private crossed = 0;

  follow(connection: MessageConnection, ownSessions: Set<string>): void {
    connection.onNotification('session/update', (params: any) => {
      if (params?.update?.sessionUpdate !== 'agent_message_chunk') return;
      if (!ownSessions.has(params.sessionId)) return void this.crossed++;
      const now = performance.now();
      const entry = this.received.get(params.sessionId) ?? { text: '', chunks: 0, firstAt: now, lastAt: now };
      entry.text += params.update.content?.text ?? '';
      entry.chunks++;
      entry.lastAt = now;
      this.received.set(params.sessionId, entry);
    });
  }

  /** When each session's first and last chunk reached its client (performance.now()), for sessions that got any. */
  arrivals(): Array<{ firstAt: number; lastAt: number }> {
    return [...this.received.values()].map(({ firstAt, lastAt }) => ({ firstAt, lastAt }));
  }

  /** Each session's text against its expected pieces: counts of sessions intact, pieces lost, doubled and out of order. */
  verify(sessions: Array<{ index: number; sessionId: string }>, chunks: number): StreamCheck {
    const check: StreamCheck = { sessionsIntact: 0, piecesExpected: 0, piecesReceived: 0, lost: 0, duplicated: 0, outOfOrder: 0, foreign: 0, crossed: this.crossed, chunkUpdates: 0 };
    for (const { index, sessionId } of sessions) {
      const expected = sessionPieces(index, chunks);
      const got = this.received.get(sessionId) ?? { text: '', chunks: 0, firstAt: NaN, lastAt: NaN };
      check.piecesExpected += expected.length;
      check.chunkUpdates += got.chunks;
      if (got.text === expected.join('')) {
        check.sessionsIntact++;
        check.piecesReceived += expected.length;
        continue;
      }
      const seen = new Map<number, number>();
      let last = -1;
      for (const piece of got.text.split(' ').filter((p) => p !== '')) {
        const match = /^s(\d+)\.(\d+)$/.exec(piece);
        if (!match || Number(match[1]) !== index) {
          check.foreign++;
          continue;
        }
        const seq = Number(match[2]);
        check.piecesReceived++;
        seen.set(seq, (seen.get(seq) ?? 0) + 1);
        if (seq <= last) check.outOfOrder++;
        last = seq;
      }
      for (let seq = 0; seq < chunks; seq++) if (!seen.has(seq)) check.lost++;
      for (const count of seen.values()) if (count > 1) check.duplicated += count - 1;
    }
    return check;
  }
}

export interface StreamCheck {
  sessionsIntact: number;
  piecesExpected: number;
  piecesReceived: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /** Pieces in a session's text that belong to another session (or are not pieces at all). */
  foreign: number;
  /** agent_message_chunk updates for a session that connection did not create. */
  crossed: number;
  /** agent_message_chunk notifications received in all (one per piece when the daemon relays each delta on its own). */
  chunkUpdates: number;
}
