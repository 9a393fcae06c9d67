import { all, anonymous, login, ok } from './api';
import { CORRESPONDENTS, GROUPS, USERS, email, password } from './data';
import { iso, DAY, type People, type Seeding } from './seeding';

/** Groups and users (acl), and the sessions of the users who make the rest. */
export async function seedPeople(s: Seeding): Promise<People> {
  const { baseUrl, now, report, log, root } = s;
  log('users and groups');
  const groups = new Map<string, string>();
  for (const g of await all(
    (cursor) => root.GET('/acl/api/v1/groups', { params: { query: { cursor, page_size: 100 } } }),
    'list groups',
  )) {
    groups.set(g.name, g.id);
  }
  for (const name of GROUPS) {
    if (groups.has(name)) {
      report.found('groups');
      continue;
    }
    const g = await ok(root.POST('/acl/api/v1/groups', { body: { name } }), `create group ${name}`);
    groups.set(name, g.id);
    report.made('groups');
  }
  const users = new Map<string, string>();
  for (const u of await all(
    (cursor) => root.GET('/acl/api/v1/users', { params: { query: { cursor, page_size: 100 } } }),
    'list users',
  )) {
    users.set(u.email, u.id);
  }
  for (const u of USERS) {
    if (users.has(email(u.key))) {
      report.found('users');
      continue;
    }
    const made = await ok(
      root.POST('/acl/api/v1/users', {
        body: {
          email: email(u.key),
          password: password(u.key),
          first_name: u.first,
          last_name: u.last,
          employee_number: u.employee ?? null,
          roles: u.roles,
          groups: u.groups.map((g) => groups.get(g)!),
          manager_id: u.manager ? users.get(email(u.manager))! : null,
          date_joined: iso(new Date(now.getTime() - u.joined * DAY)),
        },
      }),
      `create user ${email(u.key)}`,
    );
    users.set(made.email, made.id);
    report.made('users');
  }
  const as = async (key: string) => login(baseUrl, email(key), password(key));
  return {
    groups,
    users,
    id: (key: string) => users.get(email(key))!,
    admin: await as('admin'),
    editor: await as('editor'),
    sales: await as('sales'),
    finance: await as('finance'),
  };
}

/** Correspondents: invited by an editor; some accept. */
export async function seedCorrespondents(s: Seeding, p: People): Promise<void> {
  const { baseUrl, report, log, root } = s;
  const { editor, users, groups } = p;
  log('correspondents');
  const known = new Set(
    (
      await all(
        (cursor) =>
          editor.GET('/acl/api/v1/auth/correspondents/invite', {
            params: { query: { cursor, page_size: 100 } },
          }),
        'list correspondents',
      )
    ).map((c) => c.email),
  );
  for (const c of CORRESPONDENTS) {
    if (known.has(email(c.key)) || users.has(email(c.key))) {
      report.found('correspondents');
      continue;
    }
    const invited = await ok(
      editor.POST('/acl/api/v1/auth/correspondents/invite', {
        body: { email: email(c.key), first_name: c.first, last_name: c.last, phone_number: c.phone },
      }),
      `invite ${email(c.key)}`,
    );
    users.set(invited.email, invited.id);
    report.made('correspondents');
    if (c.accepts) {
      await ok(
        anonymous(baseUrl).POST('/acl/api/v1/auth/invitations/{token}/accept', {
          params: { path: { token: invited.invitation.token } },
          body: { password: password(c.key) },
        }),
        `accept the invitation of ${email(c.key)}`,
      );
      await ok(
        root.POST('/acl/api/v1/groups/{id}/members', {
          params: { path: { id: groups.get('Newsroom')! } },
          body: { user_id: invited.id },
        }),
        `add ${email(c.key)} to the newsroom`,
      );
      report.made('accepted invitations');
    }
  }
}
