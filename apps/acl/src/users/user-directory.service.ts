import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUuid, PreparedQuery } from '@media/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { User } from './user.entity';
import type { LoadedUser } from './user.view';

/**
 * A user's roles (code order) and groups (id order) as two arrays of the row whose id is `id`,
 * as the `users/me` view and every profile show them.
 */
function rolesAndGroups(id: string): string {
  return `ARRAY(SELECT ur.role_code FROM user_roles ur WHERE ur.user_id = ${id}
                 ORDER BY ur.role_code COLLATE "C")::text[] AS roles,
          ARRAY(SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${id}
                 ORDER BY gm.group_id)::text[] AS groups`;
}

/** The union of the user's roles' permissions, each once, in code-unit order (`*` is kept as is). */
const permissionsOf = (id: string) =>
  `ARRAY(SELECT DISTINCT p.permission COLLATE "C"
           FROM user_roles ur JOIN roles r ON r.code = ur.role_code,
                unnest(r.permissions) AS p(permission)
          WHERE ur.user_id = ${id}
          ORDER BY 1)::text[] AS permissions`;

interface References {
  id: string;
  roles: string[];
  permissions: string[];
  groups: string[];
}

interface UserRow extends References {
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  employee_number: string | null;
  status: User['status'];
  date_joined: Date;
  manager_id: string | null;
  last_login: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of `users` but the password hash, with the references, of the users `where` picks. */
const loadQuery = (where: string) => `
  SELECT u.id, u.email, u.first_name, u.last_name, u.phone_number, u.employee_number, u.status,
         u.date_joined, u.manager_id, u.last_login, u.created_at, u.updated_at,
         ${rolesAndGroups('u.id')}, ${permissionsOf('u.id')}
    FROM users u
   WHERE ${where}`;

/**
 * One user (`users/me`, every request that names one user): a lookup by key, whose generic plan
 * PostgreSQL keeps after five runs, so the statement is neither parsed nor planned again.
 */
const LOAD_ONE = new PreparedQuery<UserRow>('acl.users.load-one', loadQuery('u.id = $1::uuid'));
/** Many users (`acl.users.get-many`): parsed once per connection, planned per list. */
const LOAD_MANY = new PreparedQuery<UserRow>('acl.users.load-many', loadQuery('u.id = ANY($1::uuid[])'));

const REFERENCES_QUERY = `
  SELECT u.id, ${rolesAndGroups('u.id')}, ${permissionsOf('u.id')}
    FROM unnest($1::uuid[]) AS u(id)`;

function toUser(row: UserRow): User {
  return Object.assign(new User(), {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phoneNumber: row.phone_number,
    employeeNumber: row.employee_number,
    status: row.status,
    dateJoined: row.date_joined,
    managerId: row.manager_id,
    lastLogin: row.last_login,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/**
 * Loads users with their roles, effective permissions and groups in one query for any number of
 * users (other apps ask for up to ACL_USERS_MAX_IDS at a time over NATS), never one per user.
 */
@Injectable()
export class UserDirectoryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The users among `ids` that exist, keyed by id (unknown and malformed ids are simply absent). */
  async load(
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, LoadedUser>> {
    const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const out = new Map<string, LoadedUser>();
    if (wanted.length === 0) return out;
    const rows =
      wanted.length === 1
        ? await LOAD_ONE.run(this.dataSource, wanted, manager)
        : await LOAD_MANY.run(this.dataSource, [wanted], manager);
    for (const row of rows) {
      out.set(row.id, {
        user: toUser(row),
        roles: row.roles,
        permissions: row.permissions,
        groups: row.groups,
      });
    }
    return out;
  }

  /** Adds roles, permissions and groups to rows already read (a page of a list). */
  async enrich(
    users: readonly User[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, LoadedUser>> {
    const out = new Map<string, LoadedUser>();
    if (users.length === 0) return out;
    const rows: References[] = await manager.query(REFERENCES_QUERY, [users.map((u) => u.id)]);
    const references = new Map(rows.map((row) => [row.id, row]));
    for (const user of users) {
      const { roles = [], permissions = [], groups = [] } = references.get(user.id) ?? {};
      out.set(user.id, { user, roles, permissions, groups });
    }
    return out;
  }
}
