/**
 * Sealed audit entries travel on this JetStream stream on `audit.<app>`, so acl keeps a merged
 * copy. A message is a run of consecutive entries of one app (a JSON array of §8.1 objects, in
 * seq order), de-duplicated by the message id `auditMessageId`; a message holding one §8.1 object
 * (how entries were published before runs) is one entry, and is still read.
 */
export const AUDIT_STREAM = 'AUDIT';

/** The subject an app's sealed entries are published on. */
export function auditSubject(app: string): string {
  return `audit.${app}`;
}

/** The message id of the run of `app`'s entries from seq `first` to seq `last`: `<app>:<first>-<last>`. */
export function auditMessageId(app: string, first: number, last: number): string {
  return `${app}:${first}-${last}`;
}
