import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/platform';
import type { DataSource } from 'typeorm';
import { hashPassword } from '../auth/passwords';
import type { AclConfig } from '../config';

/** Arbitrary constant: one replica at a time creates the first administrator. */
const ADMIN_LOCK = 0x61636c41;

/**
 * Creates the first administrator from ADMIN_EMAIL / ADMIN_PASSWORD when no user has that email
 * (CONTRACT §4a). An existing user is never touched, so restarts and replicas change nothing and
 * a password changed since is not reset.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminBootstrap');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AclConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.admin.email?.trim().toLowerCase();
    if (!email) return;
    if (!this.config.admin.password) {
      this.logger.warn('ADMIN_EMAIL is set without ADMIN_PASSWORD; no administrator was created');
      return;
    }
    const existing: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE email = $1`, [email]);
    if (existing.length) return;
    const passwordHash = await hashPassword(this.config.admin.password);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_LOCK]);
      const created: { id: string }[] = await manager.query(
        `INSERT INTO users (email, password_hash, status) VALUES ($1, $2, 'ACTIVE') ON CONFLICT (email) DO NOTHING RETURNING id`,
        [email, passwordHash],
      );
      if (created.length === 0) return;
      await manager.query(
        `INSERT INTO user_roles (user_id, role_code) VALUES ($1, 'ADMIN') ON CONFLICT DO NOTHING`,
        [created[0].id],
      );
      this.logger.log(`Created the administrator ${email}`);
    });
  }
}
