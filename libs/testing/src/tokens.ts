import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  randomUUID,
} from 'node:crypto';

export interface TestKeys {
  privateKeyPem: string;
  publicKeyPem: string;
  kid: string;
}

/** RFC 7638 thumbprint of an RSA public key: the `kid` acl publishes for it. */
export function rsaThumbprint(publicKeyPem: string): string {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' }) as { e: string; n: string };
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

export function generateTestKeys(): TestKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { privateKeyPem, publicKeyPem, kid: rsaThumbprint(publicKeyPem) };
}

export const TEST_ISSUER = 'media-backoffice-acl';
export const TEST_AUDIENCE = 'media-backoffice';

export interface MintOptions {
  sub?: string;
  email?: string;
  name?: string;
  employee_number?: string | null;
  groups?: string[];
  roles?: string[];
  permissions?: string[];
  iss?: string;
  aud?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  kid?: string;
  /** Sign with another algorithm: `none`, or `HS256` keyed with the public key (both must be refused). */
  alg?: 'RS256' | 'none' | 'HS256-public';
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Mints an access token as acl would, with the claims a test chooses. */
export function mintToken(keys: TestKeys, options: MintOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: options.sub ?? randomUUID(),
    email: options.email ?? 'tester@example.com',
    name: options.name ?? 'Test User',
    employee_number: options.employee_number ?? null,
    groups: options.groups ?? [],
    roles: options.roles ?? [],
    permissions: options.permissions ?? [],
    iss: options.iss ?? TEST_ISSUER,
    aud: options.aud ?? TEST_AUDIENCE,
    iat: now,
    exp: now + (options.expiresIn ?? 900),
    jti: randomUUID(),
  };
  const alg = options.alg ?? 'RS256';
  if (alg === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  const header = {
    alg: alg === 'HS256-public' ? 'HS256' : 'RS256',
    typ: 'JWT',
    kid: options.kid ?? keys.kid,
  };
  const input = `${b64(header)}.${b64(claims)}`;
  if (alg === 'HS256-public') {
    return `${input}.${createHmac('sha256', keys.publicKeyPem).update(input).digest('base64url')}`;
  }
  const signature = createSign('RSA-SHA256')
    .update(input)
    .sign(createPrivateKey(keys.privateKeyPem))
    .toString('base64url');
  return `${input}.${signature}`;
}
