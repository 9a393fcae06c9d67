import type { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalTimeZone } from '../../quiet-hours/time-zones';

/**
 * Time zones stored as they were sent (`utc`, `europe/berlin`) take the tz database's own
 * spelling, as new ones do (docs/api/contract.md §7.3). A name that is no zone is left alone.
 */
export class TimeZoneSpelling1764800000023 implements MigrationInterface {
  name = 'TimeZoneSpelling1764800000023';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(`SELECT DISTINCT timezone FROM notification_settings`)) as {
      timezone: string;
    }[];
    for (const { timezone } of rows) {
      const spelled = canonicalTimeZone(timezone);
      if (spelled && spelled !== timezone) {
        await q.query(`UPDATE notification_settings SET timezone = $1 WHERE timezone = $2`, [
          spelled,
          timezone,
        ]);
      }
    }
  }

  async down(): Promise<void> {
    // The spelling as sent is not kept: nothing to undo.
  }
}
