import type { NotificationSettings } from './notification-settings.entity';

/** The caller's timezone, quiet hours and digest (docs/api/contract.md §7.3). */
export interface SettingsView {
  timezone: string;
  quiet_hours: { start: string; end: string } | null;
  email_digest: 'off' | 'daily';
  digest_time: string;
}

/** A user without a row has the defaults. */
export function toSettingsView(s: NotificationSettings | null): SettingsView {
  if (!s) return { timezone: 'UTC', quiet_hours: null, email_digest: 'off', digest_time: '08:00' };
  return {
    timezone: s.timezone,
    quiet_hours: s.quietStart && s.quietEnd ? { start: s.quietStart, end: s.quietEnd } : null,
    email_digest: s.emailDigest,
    digest_time: s.digestTime,
  };
}
