import { SERVICE_NAMES } from '@media/contracts';
import type { AuditEntry } from '@media/core';

const HEX64 = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const apps: readonly string[] = SERVICE_NAMES;

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown) => value === null || isText(value);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a message of the AUDIT stream is not a sealed §8.1 entry of the app its subject names, or
 * undefined. Such a message can never be stored, so it is not redelivered.
 */
export function auditMessageProblem(subject: string, value: unknown): string | undefined {
  if (!isObject(value)) return 'the message is not a JSON object';
  const entry = value;
  if (!isText(entry.app) || !apps.includes(entry.app)) return `unknown app ${JSON.stringify(entry.app)}`;
  if (subject !== `audit.${entry.app}`) return `an entry of ${entry.app} on ${subject}`;
  if (!Number.isSafeInteger(entry.seq) || (entry.seq as number) < 1) return 'seq is not a positive integer';
  if (!isText(entry.id) || !UUID.test(entry.id)) return 'id is not a uuid';
  if (!isText(entry.at) || Number.isNaN(Date.parse(entry.at))) return 'at is not a date-time';
  if (!isText(entry.action)) return 'action is not a string';
  const actor = entry.actor;
  if (!isObject(actor) || (actor.type !== 'user' && actor.type !== 'system') || !isText(actor.id))
    return 'actor is not {type, id, name}';
  if (!isTextOrNull(actor.name)) return 'actor.name is not a string or null';
  const resource = entry.resource;
  if (!isObject(resource) || !isText(resource.type) || !isTextOrNull(resource.id))
    return 'resource is not {type, id}';
  if (!isTextOrNull(entry.request_id) || !isTextOrNull(entry.cause))
    return 'request_id or cause is not a string';
  if (!isObject(entry.changes)) return 'changes is not an object';
  if (!isText(entry.prev_hash) || !HEX64.test(entry.prev_hash)) return 'prev_hash is not 64 hex digits';
  if (!isText(entry.hash) || !HEX64.test(entry.hash)) return 'hash is not 64 hex digits';
  return undefined;
}

/** The entry of a message `auditMessageProblem` accepted. */
export const asAuditEntry = (value: unknown): AuditEntry => value as AuditEntry;
