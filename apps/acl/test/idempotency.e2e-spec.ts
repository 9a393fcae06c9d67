/**
 * Idempotency keys on acl's creates: users, groups, invitations and their acceptance, a public
 * route scoped by the client's address (docs/api/contract.md §7.1). The whole behaviour is in
 * commercial's idempotency tests, the same platform piece.
 */
import { randomUUID } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { acl, aclDb, admin, PASSWORD, tokenWith, uniqueEmail } from './support';

describe('Idempotency-Key on acl creates', () => {
  it('creates one user for a retried create and replays the answer; another body with the key is 422', async () => {
    const token = await admin();
    const headers = idempotencyKey();
    const json = { email: uniqueEmail('idem'), password: PASSWORD, first_name: 'Ida', last_name: 'Empotent' };
    const first = await acl('/api/v1/users', { token, json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await acl('/api/v1/users', { token, json, headers }), first);
    expect(await aclDb(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [json.email])).toEqual([
      { n: 1 },
    ]);
    const other = await acl('/api/v1/users', { token, json: { ...json, first_name: 'Other' }, headers });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
  });

  it('replays a group create sent as a form', async () => {
    const token = await admin();
    const headers = idempotencyKey();
    const form = { name: `idem-${randomUUID()}` };
    const first = await acl('/api/v1/groups', { token, form, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await acl('/api/v1/groups', { token, form, headers }), first);
    expect(await aclDb(`SELECT count(*)::int AS n FROM groups WHERE name = $1`, [form.name])).toEqual([
      { n: 1 },
    ]);
  });

  it('replays an invitation, and its acceptance on the public route (scoped by the client address)', async () => {
    const inviter = tokenWith(['correspondents:invite', 'correspondents:read']);
    const inviteKey = idempotencyKey();
    const json = { email: uniqueEmail('invitee'), first_name: 'Ina', last_name: 'Vite' };
    const invited = await acl('/api/v1/auth/correspondents/invite', {
      token: inviter,
      json,
      headers: inviteKey,
    });
    expect(invited.status).toBe(201);
    expectReplayOf(
      await acl('/api/v1/auth/correspondents/invite', { token: inviter, json, headers: inviteKey }),
      invited,
    );
    expect(
      await aclDb(`SELECT count(*)::int AS n FROM invitations WHERE user_id = $1`, [invited.body.id]),
    ).toEqual([{ n: 1 }]);

    const path = `/api/v1/auth/invitations/${invited.body.invitation.token}/accept`;
    const acceptKey = idempotencyKey();
    const accepted = await acl(path, { json: { password: PASSWORD }, headers: acceptKey });
    expect(accepted.status).toBe(200);
    expectReplayOf(await acl(path, { json: { password: PASSWORD }, headers: acceptKey }), accepted);
    // Without the key, the retry meets a used invitation.
    expect((await acl(path, { json: { password: PASSWORD } })).status).toBe(404);
  });
});
