import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRETS_FILE = 'secrets.json';
/**
 * `admin@localhost` would be the obvious choice, but acl validates emails with class-validator's
 * isEmail, which wants a dot in the domain; `.localhost` is reserved for loopback (RFC 6761).
 */
export const DEFAULT_ADMIN_EMAIL = 'admin@media.localhost';

/** What `DATA_DIR/secrets.json` (mode 0600) keeps: only values the runner generated itself. */
export interface StoredSecrets {
  cursorSecret?: string;
  /** Password of the embedded PostgreSQL superuser; without it the kept cluster is unreachable. */
  postgresPassword?: string;
  adminEmail?: string;
  adminPassword?: string;
  /** The key chat-notifications seals webhook endpoint secrets with (64 hex digits). */
  webhookSecretsKey?: string;
}

export interface GivenSecrets {
  cursorSecret?: string;
  webhookSecretsKey?: string;
  adminEmail?: string;
  adminPassword?: string;
}

export interface Secrets {
  cursorSecret: string;
  webhookSecretsKey: string;
  postgresPassword: string;
  admin: {
    email: string;
    password: string;
    /** `env`: from ADMIN_PASSWORD; `generated`: made on this start (print it once); `stored`: from the file. */
    passwordSource: 'env' | 'generated' | 'stored';
  };
  file: string;
}

export class SecretsFileError extends Error {}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password of `length` characters, without look-alikes (0/O, 1/l/I) since people copy it. */
export function generatePassword(length = 20): string {
  let password = '';
  for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

function readStored(file: string): StoredSecrets {
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new SecretsFileError(
      `${file} is not valid JSON; repair it (it holds the embedded database password)`,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SecretsFileError(`${file} must hold a JSON object`);
  }
  const stored: StoredSecrets = {};
  for (const key of [
    'cursorSecret',
    'postgresPassword',
    'adminEmail',
    'adminPassword',
    'webhookSecretsKey',
  ] as const) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length > 0) stored[key] = value;
  }
  return stored;
}

function writeStored(file: string, secrets: StoredSecrets): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is masked by the umask; set it explicitly.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/**
 * Resolves the secrets of the embedded default: a variable from the environment wins, else the
 * value kept in `DATA_DIR/secrets.json`, else a new random one, written there for the next start.
 */
export function loadOrCreateSecrets(dataDir: string, given: GivenSecrets): Secrets {
  const file = join(dataDir, SECRETS_FILE);
  const stored = readStored(file);
  const next: StoredSecrets = { ...stored };

  let cursorSecret = given.cursorSecret ?? stored.cursorSecret;
  if (!cursorSecret) cursorSecret = next.cursorSecret = randomBytes(32).toString('hex');
  let webhookSecretsKey = given.webhookSecretsKey ?? stored.webhookSecretsKey;
  if (!webhookSecretsKey) webhookSecretsKey = next.webhookSecretsKey = randomBytes(32).toString('hex');
  let postgresPassword = stored.postgresPassword;
  if (!postgresPassword) postgresPassword = next.postgresPassword = randomBytes(24).toString('base64url');

  const email = given.adminEmail ?? stored.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  if (!given.adminEmail && !stored.adminEmail) next.adminEmail = email;

  let password: string;
  let passwordSource: Secrets['admin']['passwordSource'];
  if (given.adminPassword) {
    password = given.adminPassword;
    passwordSource = 'env';
  } else if (stored.adminPassword) {
    password = stored.adminPassword;
    passwordSource = 'stored';
  } else {
    password = generatePassword();
    passwordSource = 'generated';
    next.adminPassword = password;
  }

  if (JSON.stringify(next) !== JSON.stringify(stored)) writeStored(file, next);
  else if (existsSync(file)) chmodSync(file, 0o600);

  return {
    cursorSecret,
    webhookSecretsKey,
    postgresPassword,
    admin: { email, password, passwordSource },
    file,
  };
}
