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
  retiring: { kid: string; retires_at: string }[];
}
