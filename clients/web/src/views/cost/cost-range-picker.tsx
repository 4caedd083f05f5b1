import { COST_RANGES, type CostRange } from './cost-days.js';

export interface CostRangePickerProps {
  value: CostRange;
  onChange: (range: CostRange) => void;
}

/** The last 7, 30 or 90 days, as a radio group (arrow keys move between them). */
export function CostRangePicker({ value, onChange }: CostRangePickerProps) {
  return (
    <fieldset class="cost-range">
      <legend>Range</legend>
      {COST_RANGES.map((days) => (
        <label key={days}>
          <input type="radio" name="cost-range" value={String(days)} checked={value === days} onChange={() => onChange(days)} />
          {` Last ${days} days`}
        </label>
      ))}
    </fieldset>
  );
}
