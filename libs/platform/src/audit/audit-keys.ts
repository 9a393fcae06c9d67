import { JwksKeyStore } from '@media/core';

/**
 * acl's audit keys (`/acl/.well-known/audit-keys.json`, AUDIT_KEYS_URL): every key that ever
 * signed a checkpoint, retired ones included. A key store of its own, apart from the token JWKS,
 * whose retired keys are trimmed.
 */
export class AuditKeyStore extends JwksKeyStore {}
