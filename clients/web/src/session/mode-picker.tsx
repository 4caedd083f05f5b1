import type { SessionModeState } from '../../../../protocol/index.js';

/** The session's mode (agent), switched with `session/set_mode`. */
export function ModePicker({ modes, currentModeId, onChange }: { modes: SessionModeState; currentModeId: string; onChange(modeId: string): void }) {
  return (
    <div class="field">
      <label for="session-mode">Mode</label>
      <select id="session-mode" value={currentModeId} onChange={(event) => onChange(event.currentTarget.value)}>
        {modes.availableModes.map((mode) => (
          <option key={mode.id} value={mode.id} title={mode.description ?? undefined}>
            {mode.name}
          </option>
        ))}
      </select>
    </div>
  );
}
