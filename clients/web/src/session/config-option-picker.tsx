import type { SessionConfigOption, SessionConfigSelectGroup, SessionConfigSelectOption } from '../../../../protocol/index.js';

type SelectOption = Extract<SessionConfigOption, { type: 'select' }>;

/** A select setting of the session (the model is one), changed with `session/set_config_option`. */
export function ConfigOptionPicker({ option, onChange }: { option: SelectOption; onChange(value: string): void }) {
  const values: Array<SessionConfigSelectOption & { group: string | null }> = [];
  for (const entry of option.options as ReadonlyArray<SessionConfigSelectOption | SessionConfigSelectGroup>) {
    if (isGroup(entry)) for (const value of entry.options) values.push({ ...value, group: entry.name });
    else values.push({ ...entry, group: null });
  }
  return (
    <div class="field">
      <label for={`session-option-${option.id}`}>{option.name}</label>
      <select id={`session-option-${option.id}`} value={option.currentValue} onChange={(event) => onChange(event.currentTarget.value)}>
        {values.map((value) => (
          <option key={value.value} value={value.value} title={value.description ?? undefined}>
            {value.group ? `${value.group}: ${value.name}` : value.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function isGroup(entry: SessionConfigSelectOption | SessionConfigSelectGroup): entry is SessionConfigSelectGroup {
  return Array.isArray((entry as SessionConfigSelectGroup).options);
}
