import type { PublicJwk } from '../keys/key.view';
import type { AuditSigningKey } from './audit-signing-key.entity';

/** `GET /acl/.well-known/audit-keys.json`: every key that ever signed a checkpoint. */
export interface AuditKeysView {
  keys: PublicJwk[];
}

/** The JWKS of the recorded keys, public members only, in the order they first signed. */
export function toAuditKeysView(rows: readonly AuditSigningKey[]): AuditKeysView {
  return {
    keys: rows.map(({ kid, publicJwk: { kty, n, e, alg, use } }) => ({ kty, n, e, kid, alg, use })),
  };
}
