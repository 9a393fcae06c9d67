import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationFailed } from '@media/core';

export type KeyValue = string | number;

/** What a cursor carries: the sort key of a boundary row and which way to read from it. */
export interface CursorPayload {
  /** `n`: rows after the key; `p`: rows before it. */
  d: 'n' | 'p';
  k: KeyValue[];
}

const invalid = () => ValidationFailed.at(['query', 'cursor'], 'Invalid cursor', 'value_error');

/**
 * Opaque, tamper-evident cursors: base64url JSON plus an HMAC over it and the list it belongs to,
 * so a changed cursor, or one taken from another list, is refused (docs/api/contract.md §3).
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(scope: string, payload: CursorPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(scope, body)}`;
  }

  decode(scope: string, cursor: string, keyLength: number): CursorPayload {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(scope, body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw invalid();
    }
    const valid =
      (payload.d === 'n' || payload.d === 'p') &&
      Array.isArray(payload.k) &&
      payload.k.length === keyLength &&
      payload.k.every((v) => typeof v === 'string' || typeof v === 'number');
    if (!valid) throw invalid();
    return payload;
  }

  private sign(scope: string, body: string): string {
    return createHmac('sha256', this.secret)
      .update(scope)
      .update('\0')
      .update(body)
      .digest('base64url')
      .slice(0, 22);
  }
}
