/** An open permission question as a session overview shows it. */
export interface OpenPermissionQuestion {
  toolCallId: string;
  title: string;
}

/**
 * The permission questions waiting for an answer, by the top-level session they belong
 * to (a sub-agent's count for the session that started it), oldest first. The asker
 * records each question for as long as it is open; whoever shows sessions' states reads
 * them here and is told when they change.
 */
export class OpenPermissionQuestions {
  private readonly open = new Map<string, OpenPermissionQuestion[]>();
  private readonly listeners = new Set<(rootSessionId: string) => void>();

  /** The oldest question open for the session, if any. */
  oldest(rootSessionId: string): OpenPermissionQuestion | undefined {
    return this.open.get(rootSessionId)?.[0];
  }

  /** Sessions with a question open now. */
  sessionIds(): string[] {
    return [...this.open.keys()];
  }

  /** Holds `question` open for the root session while `ask` runs. */
  async during<T>(rootSessionId: string, question: OpenPermissionQuestion, ask: () => Promise<T>): Promise<T> {
    const entry = { toolCallId: question.toolCallId, title: question.title };
    this.open.set(rootSessionId, [...(this.open.get(rootSessionId) ?? []), entry]);
    this.changed(rootSessionId);
    try {
      return await ask();
    } finally {
      const left = (this.open.get(rootSessionId) ?? []).filter((q) => q !== entry);
      if (left.length > 0) this.open.set(rootSessionId, left);
      else this.open.delete(rootSessionId);
      this.changed(rootSessionId);
    }
  }

  /** Told the root session's id whenever a question of it opens or settles; returns the unsubscribe function. */
  onChange(listener: (rootSessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(rootSessionId: string): void {
    for (const listener of this.listeners) listener(rootSessionId);
  }
}
