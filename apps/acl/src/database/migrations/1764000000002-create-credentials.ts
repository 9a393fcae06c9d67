import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Signing keys, refresh tokens, invitations and login-failure counters. */
export class CreateCredentials1764000000002 implements MigrationInterface {
  name = 'CreateCredentials1764000000002';

  async up(q: QueryRunner): Promise<void> {
    // Kept in acl's database so every replica signs with, and publishes, the same keys.
    await q.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        private_key_pem text NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        retired_at timestamptz(3)
      )`);
    // Only a SHA-256 of each refresh token is stored; the token itself is 256 random bits.
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        family_id uuid NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        expires_at timestamptz(3) NOT NULL,
        retired_at timestamptz(3),
        revoked_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX refresh_tokens_hash_key ON refresh_tokens (token_hash)`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`);
    await q.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        invited_by uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        expires_at timestamptz(3) NOT NULL,
        accepted_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash)`);
    await q.query(`CREATE INDEX invitations_user_idx ON invitations (user_id)`);
    // Keyed by the email as typed (lowercased), known or not, so the delay tells nothing about existence.
    await q.query(`
      CREATE TABLE login_failures (
        email text PRIMARY KEY,
        failures int NOT NULL,
        last_failed_at timestamptz(3) NOT NULL
      )`);
    await q.query(`CREATE INDEX login_failures_last_idx ON login_failures (last_failed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE login_failures`);
    await q.query(`DROP TABLE invitations`);
    await q.query(`DROP TABLE refresh_tokens`);
    await q.query(`DROP TABLE signing_keys`);
  }
}
