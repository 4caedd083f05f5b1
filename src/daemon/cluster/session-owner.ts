/** The daemon that owns a session now (holds its lease), or undefined when none does. */
export type FindSessionOwner = (sessionId: string) => Promise<string | undefined>;

/**
 * The owner as known before session leases exist: nobody, so every daemon runs what it
 * receives (the single-daemon answer). The lease store replaces it (StartOptions.findSessionOwner).
 */
export const noSessionOwner: FindSessionOwner = async () => undefined;
