/** No schedule has this id. */
export class ScheduleNotFoundError extends Error {
  constructor(readonly scheduleId: string) {
    super(`schedule ${JSON.stringify(scheduleId)} not found; list schedules with schedules/list (agentd schedules list)`);
  }
}

/** The schedule comes from config.json and cannot change over the protocol. */
export class ScheduleReadOnlyError extends Error {
  constructor(
    readonly scheduleId: string,
    action: 'update' | 'remove',
  ) {
    super(
      `schedule ${JSON.stringify(scheduleId)} comes from config.json and cannot be ${action === 'update' ? 'updated' : 'removed'} over the protocol; ` +
        `edit its entry under "schedules" in config.json instead`,
    );
  }
}

/** A schedule's fields are invalid; each issue is `field: problem and fix`. */
export class ScheduleInvalidError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join('; '));
  }
}
