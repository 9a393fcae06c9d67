/**
 * What the claim benchmarks share: EDITOR users created through the gateway (their tokens minted
 * by the stack), and an autocannon run in which each request claims the next seeded task.
 */
import { createRequire } from 'node:module';
import { runAutocannon } from './app-server.mjs';
import { assert, dist } from './seed-users.mjs';

const { CONTRACT_ROLES } = createRequire(import.meta.url)(dist('libs/contracts/src/apps.js'));
/** The EDITOR role's permissions, from the contract's one role table. */
const EDITOR = [...CONTRACT_ROLES.find((role) => role.code === 'EDITOR').permissions];

/** `count` EDITOR users created as the stack's administrator; their access tokens. */
export async function createClaimers(stack, count) {
  const login = await fetch(`${stack.urls.gateway}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(stack.admin),
  });
  const { access_token: adminToken } = await login.json();
  const users = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${stack.urls.gateway}/acl/api/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({
        email: `claimer-${i}@example.com`,
        password: 'bench-password-1234',
        first_name: 'Claimer',
        last_name: String(i),
        roles: ['EDITOR'],
      }),
    });
    const body = await res.json();
    assert(res.status === 201, `user create: ${res.status} ${JSON.stringify(body)}`);
    users.push(body.id);
  }
  return users.map((id) => stack.token({ sub: id, permissions: EDITOR, roles: ['EDITOR'] }));
}

/** `connections` clients for `duration` s against `base`, each request claiming `ids[cursor.next++]`. */
export function claimRun(base, ids, tokens, cursor, { connections, duration }) {
  return runAutocannon({
    url: base,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = cursor.next++;
          assert(i < ids.length, 'ran out of seeded tasks: raise TASKS');
          return {
            ...req,
            path: `/assignment/api/v1/tasks/${ids[i]}/claim`,
            headers: {
              authorization: `Bearer ${tokens[i % tokens.length]}`,
              'content-type': 'application/json',
            },
            body: '{}',
          };
        },
      },
    ],
  });
}
