import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, roles, groups and their links: the identity every other app checks tokens against. */
export class CreateIdentity1764000000000 implements MigrationInterface {
  name = 'CreateIdentity1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text,
        first_name text,
        last_name text,
        phone_number text,
        employee_number text,
        status text NOT NULL DEFAULT 'ACTIVE',
        date_joined timestamptz(3) NOT NULL DEFAULT now(),
        manager_id uuid REFERENCES users (id) ON DELETE SET NULL,
        last_login timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT users_status_check CHECK (status IN ('INVITED', 'ACTIVE', 'DISABLED')),
        -- emails are compared case-insensitively by storing them lowercased
        CONSTRAINT users_email_lowercase CHECK (email = lower(email)),
        CONSTRAINT users_not_own_manager CHECK (manager_id IS DISTINCT FROM id)
      )`);
    // The unique index is what makes two concurrent invitations of one email end in one 409.
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);
    await q.query(
      `CREATE UNIQUE INDEX users_employee_number_key ON users (employee_number) WHERE employee_number IS NOT NULL`,
    );
    // Serves the growth series (range scans, index-only counts) and the keyset lists (date_joined, id).
    await q.query(`CREATE INDEX users_date_joined_idx ON users (date_joined, id)`);
    await q.query(`CREATE INDEX users_manager_idx ON users (manager_id) WHERE manager_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE roles (
        code text PRIMARY KEY,
        name text NOT NULL,
        permissions text[] NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE user_roles (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role_code text NOT NULL REFERENCES roles (code) ON UPDATE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, role_code)
      )`);
    await q.query(`CREATE INDEX user_roles_role_idx ON user_roles (role_code, user_id)`);

    await q.query(`
      CREATE TABLE groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX groups_name_key ON groups (lower(name))`);
    await q.query(`
      CREATE TABLE group_members (
        group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX group_members_user_idx ON group_members (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE group_members`);
    await q.query(`DROP TABLE groups`);
    await q.query(`DROP TABLE user_roles`);
    await q.query(`DROP TABLE roles`);
    await q.query(`DROP TABLE users`);
  }
}
