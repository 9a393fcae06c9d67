import { ACL_USERS_MAX_IDS, AclSubjects, type UserProfile } from '@media/contracts';
import { UpstreamUnavailable } from '@media/core';
import type { RpcClient } from '@media/messaging';
import { AclClient } from './acl.client';

const profile = (id: string): UserProfile => ({
  id,
  name: `User ${id}`,
  email: `${id}@example.com`,
  first_name: 'User',
  last_name: id,
  employee_number: null,
  manager_id: null,
  status: 'ACTIVE',
  roles: [],
  permissions: [],
  groups: [],
});

/** A stand-in for the NATS transport (RpcClient) that answers as acl does and records each request. */
function stubTransport(known: Set<string>, fail?: (page: number) => boolean) {
  const requests: { subject: string; ids: string[] }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const rpc = {
    async send(subject: string, data: { ids: string[] }) {
      const page = requests.length;
      requests.push({ subject, ids: data.ids });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight--;
      if (fail?.(page)) throw new UpstreamUnavailable(`The service behind '${subject}' did not answer.`);
      const found = data.ids.filter((id) => known.has(id));
      return subject === AclSubjects.usersExists ? { existing: found } : found.map(profile);
    },
  };
  return { rpc: rpc as unknown as RpcClient, requests, maxInFlight: () => maxInFlight };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${String(i).padStart(5, '0')}`);

describe('AclClient', () => {
  it('asks for 2,500 profiles in pages of ACL_USERS_MAX_IDS, one after another, and answers them by id', async () => {
    const all = ids(2_500);
    const transport = stubTransport(new Set(all));
    const found = await new AclClient(transport.rpc).profiles([...all, ...all.slice(0, 10)]);
    expect(transport.requests.map((r) => r.ids.length)).toEqual([ACL_USERS_MAX_IDS, ACL_USERS_MAX_IDS, 500]);
    expect(transport.maxInFlight()).toBe(1);
    expect(found.size).toBe(2_500);
    expect(found.get('u02499')?.email).toBe('u02499@example.com');
  });

  it('asks once for a bulk action of 100 users, and leaves unknown ids out', async () => {
    const wanted = ids(100);
    const transport = stubTransport(new Set(wanted.slice(0, 99)));
    const found = await new AclClient(transport.rpc).profiles(wanted.map((id) => id.toUpperCase()));
    expect(transport.requests).toHaveLength(1);
    expect(found.size).toBe(99);
    expect(found.has('u00099')).toBe(false);
  });

  it('fails the whole call with 503 when any page goes unanswered', async () => {
    const transport = stubTransport(new Set(ids(2_500)), (page) => page === 1);
    await expect(new AclClient(transport.rpc).profiles(ids(2_500))).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
    });
  });

  it('refuses an unknown user with 422 at the given loc, and accepts a known one', async () => {
    const client = new AclClient(stubTransport(new Set(['u1'])).rpc);
    await expect(client.requireUser('U1', ['body', 'bm_id'])).resolves.toBeUndefined();
    await expect(client.requireUser('u2', ['body', 'bm_id'])).rejects.toMatchObject({
      status: 422,
      issues: [{ loc: ['body', 'bm_id'], msg: 'User u2 does not exist', type: 'value_error' }],
    });
  });
});
