import { announcement } from './announcer.js';

/** The page's polite live region: screen readers read each announcement. */
export function LiveRegion() {
  return (
    <div class="visually-hidden" role="status" aria-live="polite">
      {announcement.value}
    </div>
  );
}
