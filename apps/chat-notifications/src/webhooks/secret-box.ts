import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** The prefix of a Standard Webhooks secret (the key is the base64 after it). */
const SECRET_PREFIX = 'whsec_';
const VERSION = 'v1';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newEndpointSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * Endpoint secrets at rest: AES-256-GCM under WEBHOOK_SECRETS_KEY, as `v1.<iv>.<tag>.<ciphertext>`
 * (base64url), the endpoint id as associated data so a ciphertext copied to another row does not
 * decrypt there. A database read alone never reveals a secret.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook secrets key must be 32 bytes');
  }

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string, endpointId: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined)
      throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` under each secret's decoded key, space-separated.
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(
        secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
        'base64',
      );
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
