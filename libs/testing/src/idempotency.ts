import { randomUUID } from 'node:crypto';
import type { ApiResponse } from './http';

/** A fresh `Idempotency-Key` header (docs/api/contract.md §7.1). */
export function idempotencyKey(key: string = randomUUID()): { 'idempotency-key': string } {
  return { 'idempotency-key': key };
}

/**
 * Asserts that `replay` is `first` again, as a client sees it: the same status, byte-identical
 * body, the same Location and ETag, and `Idempotent-Replayed: true` (which `first` lacks).
 */
export function expectReplayOf(replay: ApiResponse, first: ApiResponse): void {
  expect(first.status).toBeGreaterThanOrEqual(200);
  expect(first.status).toBeLessThan(300);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect({
    status: replay.status,
    text: replay.text,
    location: replay.headers.get('location'),
    etag: replay.headers.get('etag'),
    contentType: replay.headers.get('content-type'),
    replayed: replay.headers.get('idempotent-replayed'),
  }).toEqual({
    status: first.status,
    text: first.text,
    location: first.headers.get('location'),
    etag: first.headers.get('etag'),
    contentType: first.headers.get('content-type'),
    replayed: 'true',
  });
}

/** The 422 body of a key used again with another body (an asymmetric matcher for `toEqual`). */
export function keyReused(): unknown {
  return {
    detail: [{ loc: ['header', 'idempotency-key'], msg: expect.any(String), type: 'idempotency_key_reused' }],
  };
}
