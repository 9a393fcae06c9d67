/** The public half as published in the JWKS. */
export interface PublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/** The outcome of a rotation. */
export interface RotationResult {
  kid: string;
  /** When the new key starts signing (it is published at once). */
  signs_from: string;
  retiring: { kid: string; retires_at: string }[];
  /** Keys no longer published, the oldest beyond JWKS_MAX_KEYS. */
  unpublished: string[];
}
