import { verify } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import type { JwksKeyStore, AuditCheckpoint } from '@media/core';

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether `jws` is acl's signature of exactly `checkpoint`: a compact JWS, RS256, whose header
 * names `kid` and whose payload is the checkpoint's JSON, checked against the key acl publishes
 * for `kid` in its audit keys. A key acl does not publish is a bad signature; acl unreachable
 * throws UpstreamUnavailable (the answer would depend on it).
 */
export async function checkpointSignatureValid(
  keys: JwksKeyStore,
  checkpoint: AuditCheckpoint,
  kid: string,
  jws: string,
): Promise<boolean> {
  const parts = jws.split('.');
  if (parts.length !== 3) return false;
  const [header, payload, signature] = parts;
  const protectedHeader = decodeJson(header) as { alg?: unknown; kid?: unknown } | undefined;
  if (protectedHeader?.alg !== 'RS256' || protectedHeader.kid !== kid) return false;
  const signed = decodeJson(payload);
  if (typeof signed !== 'object' || signed === null || canonicalize(signed) !== canonicalize(checkpoint))
    return false;
  const key = await keys.getKeyObject(kid);
  if (!key) return false;
  return verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
}
