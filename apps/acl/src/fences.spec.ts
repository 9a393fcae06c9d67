import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFences } from '@media/testing';

/**
 * acl's features are fenced, so each can be read and changed alone: a feature writes only the
 * tables its own entities map, and the credentials helpers are a leaf that imports no feature.
 */
describeFences('acl', __dirname, {
  tables: ['users', 'user_roles', 'groups', 'group_members', 'refresh_tokens', 'invitations'],
  leaves: ['credentials'],
  alsoWrites: {
    // Filled by a trigger the feature's migration creates; no entity maps it.
    analytics: ['user_join_days'],
    // Columns sessions owns in users (added by its own migration): see below.
    sessions: ['users'],
  },
});

function sessionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sessionSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

it('lets sessions write only the token version columns of users', () => {
  const updates = sessionSources(join(__dirname, 'sessions')).flatMap((text) =>
    [...text.matchAll(/UPDATE users SET ([^\n]*)/g)].map((m) => m[1]),
  );
  expect(updates).toEqual(['token_version = token_version + 1, token_version_raised_at = now()']);
});
