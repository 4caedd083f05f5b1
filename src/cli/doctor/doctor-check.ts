/** How one `agentd doctor` check came out. */
export type DoctorStatus = 'ok' | 'warn' | 'fail';

/** One line of the `agentd doctor` checklist (and one object of `agentd doctor --json`). */
export interface DoctorCheck {
  /** Stable identifier for scripts, e.g. `config`, `dir:data`, `provider:openai`. */
  id: string;
  /** Short label shown in the checklist, e.g. `data dir`. */
  title: string;
  /** `ok`: nothing to do; `warn`: agentd works but something is degraded; `fail`: something will not work. */
  status: DoctorStatus;
  /** What was found, in one or a few lines. Never contains an API key. */
  detail: string;
  /** What to do about it; present exactly when status is not `ok`. */
  fix?: string;
}

/** The whole `agentd doctor` result. */
export interface DoctorReport {
  /** False when any check failed (the command then exits 1). */
  ok: boolean;
  /** Every check, in the order they are shown. */
  checks: DoctorCheck[];
}

export function okCheck(id: string, title: string, detail: string): DoctorCheck {
  return { id, title, status: 'ok', detail };
}

export function warnCheck(id: string, title: string, detail: string, fix: string): DoctorCheck {
  return { id, title, status: 'warn', detail, fix };
}

export function failCheck(id: string, title: string, detail: string, fix: string): DoctorCheck {
  return { id, title, status: 'fail', detail, fix };
}
