import { signal } from '@preact/signals';

/**
 * What the page's live region says next (connection changes, a permission asked or settled,
 * a turn ended): screen readers read each new message once.
 */
export const announcement = signal('');

export function announce(message: string): void {
  announcement.value = message;
}
