import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { ValidationFailed } from '@media/core';
import { markFormBody } from '@media/kernel';
import { recordRawBody } from '../http/raw-body';
import { bodyFingerprint, idempotencyKey, requestPath, scopeOf } from './fingerprint';
import { cleanupPeriod } from './idempotency-cleanup';

const request = (headers: Record<string, string>, extra: Partial<Request> = {}) =>
  ({ headers, ...extra }) as unknown as Request;

describe('idempotencyKey', () => {
  it('is undefined without the header', () => {
    expect(idempotencyKey(request({}))).toBeUndefined();
  });

  it('accepts 1 to 255 visible ASCII characters', () => {
    expect(idempotencyKey(request({ 'idempotency-key': '!~a' }))).toBe('!~a');
    expect(idempotencyKey(request({ 'idempotency-key': 'k'.repeat(255) }))).toBe('k'.repeat(255));
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'a b'],
    ['a non-ASCII letter', 'clé'],
    ['a control character', 'a\tb'],
  ])('refuses %s with a 422 at the header', (_name, key) => {
    let thrown: unknown;
    try {
      idempotencyKey(request({ 'idempotency-key': key }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationFailed);
    expect((thrown as ValidationFailed).issues).toEqual([
      { loc: ['header', 'idempotency-key'], msg: expect.any(String), type: 'value_error' },
    ]);
  });
});

describe('bodyFingerprint', () => {
  it('is the SHA-256 of the raw bytes of a JSON body', () => {
    const req = request({ 'idempotency-key': 'k' });
    recordRawBody(req, Buffer.from('{"a": 1}'));
    expect(bodyFingerprint(req)).toBe(createHash('sha256').update('{"a": 1}').digest('hex'));
  });

  it('does not hash bodies of requests without a key', () => {
    const req = request({}, { body: { a: 1 } });
    recordRawBody(req, Buffer.from('{"a": 1}'));
    expect(bodyFingerprint(req)).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('gives a form the same fingerprint whatever the order of its fields, and another for other values', () => {
    const a = bodyFingerprint(request({}, { body: markFormBody({ name: 'x', tags: ['1', '2'] }) }));
    const b = bodyFingerprint(request({}, { body: markFormBody({ tags: ['1', '2'], name: 'x' }) }));
    const c = bodyFingerprint(request({}, { body: markFormBody({ tags: ['2', '1'], name: 'x' }) }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

describe('scope', () => {
  it('uses the path as requested, without the query', () => {
    expect(requestPath(request({}, { originalUrl: '/chat/api/v1/rooms/1/messages?x=1' }))).toBe(
      '/chat/api/v1/rooms/1/messages',
    );
  });

  it('tells two paths, two callers and two methods apart', () => {
    const base = scopeOf('user:1', 'POST', '/a', 'k');
    expect(scopeOf('user:2', 'POST', '/a', 'k')).not.toBe(base);
    expect(scopeOf('user:1', 'PUT', '/a', 'k')).not.toBe(base);
    expect(scopeOf('user:1', 'POST', '/b', 'k')).not.toBe(base);
    expect(scopeOf('user:1', 'POST', '/a', 'k')).toBe(base);
  });
});

describe('cleanupPeriod', () => {
  it('cleans every TTL, at most hourly and at least a second apart', () => {
    expect(cleanupPeriod(24 * 3_600_000)).toBe(3_600_000);
    expect(cleanupPeriod(5_000)).toBe(5_000);
    expect(cleanupPeriod(10)).toBe(1_000);
  });
});
