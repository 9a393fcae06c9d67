import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ValidationIssue } from '@media/contracts';
import { isFormBody, validateDto } from '@media/kernel';
import { ValidationFailed, type AuthUser } from '@media/core';
import type { DataSource } from 'typeorm';
import { MAX_PREFERENCES, PreferenceItemDto } from './dto/notification.dto';
import { toPreferenceView, type PreferencesView } from './notifications.view';
import { NotificationPreference } from './notification-preference.entity';

/** Validates one item, collecting its issues rather than stopping at the first item. */
async function item(value: unknown, loc: string[], text: boolean, issues: ValidationIssue[]) {
  try {
    return await validateDto(PreferenceItemDto, value, loc, text);
  } catch (error) {
    if (error instanceof ValidationFailed) {
      issues.push(...error.issues);
      return undefined;
    }
    throw error;
  }
}

/**
 * Parses the body of docs/api/contract.md §4.14: one object, or a list of 1..100 whose items are located
 * by index; the same (type, channel) twice is a 422 at the later index.
 */
export async function parsePreferences(body: unknown): Promise<PreferenceItemDto[]> {
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(body)) {
    return [await validateDto(PreferenceItemDto, body ?? null, ['body'], isFormBody(body))];
  }
  if (body.length < 1) throw ValidationFailed.at(['body'], 'List should have at least 1 item', 'too_short');
  if (body.length > MAX_PREFERENCES) {
    throw ValidationFailed.at(['body'], `List should have at most ${MAX_PREFERENCES} items`, 'too_long');
  }
  const items: (PreferenceItemDto | undefined)[] = [];
  for (const [i, value] of body.entries()) items.push(await item(value, ['body', String(i)], false, issues));
  const seen = new Set<string>();
  items.forEach((p, i) => {
    if (!p) return;
    const key = `${p.notification_type}\u0000${p.channel}`;
    if (seen.has(key)) {
      issues.push({
        loc: ['body', String(i)],
        msg: `Duplicate preference for '${p.notification_type}' on '${p.channel}'`,
        type: 'value_error',
      });
    }
    seen.add(key);
  });
  if (issues.length > 0) throw new ValidationFailed(issues);
  return items as PreferenceItemDto[];
}

/** Notification preferences of the caller (docs/api/contract.md §4.14). */
@Injectable()
export class PreferencesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async upsert(body: unknown, user: AuthUser): Promise<PreferencesView> {
    const items = await parsePreferences(body);
    // One statement; the unique index (recipient, type, channel) makes concurrent upserts safe.
    // In a transaction, as every audited change (its entries name the caller).
    await this.dataSource.transaction((manager) =>
      manager.query(
        `INSERT INTO notification_preferences (recipient_id, notification_type, channel, enabled)
       SELECT $1, t, c, e FROM unnest($2::text[], $3::text[], $4::boolean[]) AS x (t, c, e)
       ON CONFLICT (recipient_id, notification_type, channel)
       DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = clock_timestamp()`,
        [
          user.id,
          items.map((p) => p.notification_type),
          items.map((p) => p.channel),
          items.map((p) => p.enabled),
        ],
      ),
    );
    return this.list(user);
  }

  /** The caller's whole list, by type then channel in byte order (`*` first). */
  async list(user: AuthUser): Promise<PreferencesView> {
    const rows = await this.dataSource
      .getRepository(NotificationPreference)
      .createQueryBuilder('p')
      .where('p.recipient_id = :me', { me: user.id })
      .orderBy('p.notification_type COLLATE "C"', 'ASC')
      .addOrderBy('p.channel COLLATE "C"', 'ASC')
      .getMany();
    return { preferences: rows.map(toPreferenceView) };
  }
}
