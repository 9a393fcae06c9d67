/**
 * Sealed audit entries travel on this JetStream stream, one message per entry on
 * `audit.<app>` (de-duplicated by the message id `<app>:<seq>`), so acl keeps a merged copy.
 */
export const AUDIT_STREAM = 'AUDIT';

/** The subject an app's sealed entries are published on. */
export function auditSubject(app: string): string {
  return `audit.${app}`;
}
