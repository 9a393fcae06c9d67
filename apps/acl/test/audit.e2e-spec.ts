/**
 * acl's audit trail (CONTRACT §8.1): users created and updated (the password hash "[redacted]"),
 * group memberships added and removed, a refused change leaving nothing, and the security events
 * of logins (succeeded, failed for a known and an unknown email, refused while another is in
 * flight) and of a refresh token presented again, never the password or the token.
 */
import { randomUUID } from 'node:crypto';
import { queryDatabase, recordedEntries, sealedEntries } from '@media/testing';
import { acl, aclDb, admin, createUser, login, PASSWORD, system, uniqueEmail } from './support';

const db = () => system().databases.acl;

describe('the audit trail of acl', () => {
  it('records a user created and updated, the password hash redacted', async () => {
    const user = await createUser({ first_name: 'Audit' });
    const patched = await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { first_name: 'Audited' },
    });
    expect(patched.status).toBe(200);
    const [created, updated] = await sealedEntries(db(), { type: 'user', id: user.id }, 2);
    expect(created).toMatchObject({
      app: 'acl',
      action: 'user.created',
      actor: { type: 'user' },
      resource: { type: 'user', id: user.id },
    });
    expect(created.changes.email).toEqual([null, user.email]);
    expect(created.changes.password_hash).toEqual([null, '[redacted]']);
    expect(updated).toMatchObject({ action: 'user.updated', changes: { first_name: ['Audit', 'Audited'] } });
    expect(JSON.stringify([created, updated])).not.toContain(PASSWORD);
  });

  it('records a membership added and removed as entries of the group, and nothing for a refused one', async () => {
    const token = await admin();
    const group = await acl('/api/v1/groups', { token, json: { name: `audit-${randomUUID()}` } });
    expect(group.status).toBe(201);
    const user = await createUser();
    const added = await acl(`/api/v1/groups/${group.body.id}/members`, { token, json: { user_id: user.id } });
    expect(added.status).toBe(201);
    const removed = await acl(`/api/v1/groups/${group.body.id}/members/${user.id}`, {
      method: 'DELETE',
      token,
    });
    expect(removed.status).toBe(204);
    const entries = await sealedEntries(db(), { id: group.body.id }, 3);
    expect(entries.map((e) => [e.action, e.resource.type])).toEqual([
      ['group.created', 'group'],
      ['group.member.added', 'group.member'],
      ['group.member.removed', 'group.member'],
    ]);
    expect(entries[1].changes.user_id).toEqual([null, user.id]);
    expect(entries[2].changes.user_id).toEqual([user.id, null]);

    const refused = await acl(`/api/v1/groups/${group.body.id}/members`, {
      token,
      json: { user_id: randomUUID() },
    });
    expect(refused.status).toBe(422);
    expect(await recordedEntries(db(), group.body.id)).toBe(3);
  });

  it('records login successes and failures as security events of the user, never the password', async () => {
    const user = await createUser();
    expect((await login(user.email, 'not the password')).status).toBe(401);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    const unknown = uniqueEmail('nobody');
    expect((await login(unknown, PASSWORD)).status).toBe(401);

    const events = await sealedEntries(db(), { type: 'user', id: user.id }, 3);
    const security = events.filter((e) => e.action.startsWith('user.login.'));
    expect(security.map((e) => e.action)).toEqual(['user.login.failed', 'user.login.succeeded']);
    expect(security[0]).toMatchObject({ actor: { type: 'system', id: 'acl:login' }, changes: {} });
    expect(security[1]).toMatchObject({ actor: { type: 'user', id: user.id }, changes: {} });

    const [failedUnknown] = await queryDatabase<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM audit_entries
        WHERE action = 'user.login.failed' AND resource_id IS NULL AND resource_type = 'user'`,
    );
    expect(failedUnknown.n).toBeGreaterThanOrEqual(1);
    const [leaked] = await queryDatabase<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM audit_entries WHERE changes::text LIKE '%' || $1 || '%'`,
      [PASSWORD],
    );
    expect(leaked.n).toBe(0);
  });
  it('records a login refused while another is in flight, and a refresh token presented again', async () => {
    const user = await createUser();
    // An attempt in flight, as another replica records it.
    await aclDb(
      `INSERT INTO login_failures (email, failures, last_failed_at, in_flight_until)
       VALUES ($1, 0, now(), now() + interval '1 minute')`,
      [user.email],
    );
    expect((await login(user.email, PASSWORD)).status).toBe(429);
    await aclDb(`UPDATE login_failures SET in_flight_until = NULL WHERE email = $1`, [user.email]);
    const first = await login(user.email, PASSWORD);
    expect(first.status).toBe(200);
    const rotated = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(rotated.status).toBe(200);
    const reused = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(reused.status).toBe(401);

    const entries = await sealedEntries(db(), { type: 'user', id: user.id }, 4);
    expect(entries.map((e) => e.action)).toEqual([
      'user.created',
      'user.login.rate_limited',
      'user.login.succeeded',
      'user.refresh.reused',
    ]);
    expect(JSON.stringify(entries)).not.toContain(first.body.refresh_token);
  });
});
