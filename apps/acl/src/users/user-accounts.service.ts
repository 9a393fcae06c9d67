import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { UserStatus } from '@media/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { userConflict } from './user-conflict';
import { User } from './user.entity';

/** Arbitrary constant: one replica at a time creates the first administrator. */
const ADMIN_LOCK = 0x61636c41;

/** What signing in needs of a user; the hash never leaves acl. */
export interface SignInRecord {
  id: string;
  password_hash: string | null;
  status: UserStatus;
}

/** An invited user's profile fields. */
export interface InvitedUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
  phoneNumber: string | null;
  dateJoined: Date;
}

/**
 * What the other features (auth, correspondents, bootstrap) do to the `users` and `user_roles`
 * tables: users owns them, so their writes go through here. Methods taking a manager run in the
 * caller's transaction.
 */
@Injectable()
export class UserAccountsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The sign-in record of an email (stored lowercased), or undefined for an unknown one. */
  async signInRecord(email: string): Promise<SignInRecord | undefined> {
    const rows: SignInRecord[] = await this.dataSource.query(
      `SELECT id, password_hash, status FROM users WHERE email = $1`,
      [email],
    );
    return rows[0];
  }

  async recordLogin(userId: string): Promise<void> {
    await this.dataSource.query(`UPDATE users SET last_login = now() WHERE id = $1`, [userId]);
  }

  /** The user's status, or undefined for an unknown user. */
  async status(manager: EntityManager, userId: string): Promise<UserStatus | undefined> {
    const rows: { status: UserStatus }[] = await manager.query(`SELECT status FROM users WHERE id = $1`, [
      userId,
    ]);
    return rows[0]?.status;
  }

  /**
   * Creates an INVITED user (no password) holding `role`. A taken email meets the unique index:
   * 409 `email_taken`, also when a concurrent invitation of the same email commits first.
   */
  async createInvited(manager: EntityManager, fields: InvitedUser, role: string): Promise<User> {
    try {
      const users = manager.getRepository(User);
      const created = await users.save(users.create({ ...fields, passwordHash: null, status: 'INVITED' }));
      await manager.query(`INSERT INTO user_roles (user_id, role_code) VALUES ($1, $2)`, [created.id, role]);
      return created;
    } catch (error) {
      throw userConflict(error) ?? error;
    }
  }

  /** The user's row, locked until the caller's transaction ends; null for an unknown user. */
  lockForUpdate(manager: EntityManager, userId: string): Promise<User | null> {
    return manager
      .getRepository(User)
      .findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Sets the password and makes the user ACTIVE (an accepted invitation). */
  async activate(manager: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { passwordHash, status: 'ACTIVE' });
  }

  async emailTaken(email: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE email = $1`, [email]);
    return rows.length > 0;
  }

  /**
   * Creates an ACTIVE ADMIN with this email unless a user already has it (then nothing changes);
   * true when it was created. Replicas starting together take turns on an advisory lock.
   */
  createFirstAdmin(email: string, passwordHash: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_LOCK]);
      const created: { id: string }[] = await manager.query(
        `INSERT INTO users (email, password_hash, status) VALUES ($1, $2, 'ACTIVE') ON CONFLICT (email) DO NOTHING RETURNING id`,
        [email, passwordHash],
      );
      if (created.length === 0) return false;
      await manager.query(
        `INSERT INTO user_roles (user_id, role_code) VALUES ($1, 'ADMIN') ON CONFLICT DO NOTHING`,
        [created[0].id],
      );
      return true;
    });
  }
}
