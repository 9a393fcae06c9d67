import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUuid } from '@media/core';
import { PreparedQuery } from '@media/kernel';
import type { DataSource, EntityManager } from 'typeorm';
import { User } from './user.entity';
import type { LoadedUser, ProfiledUser } from './user.view';

/**
 * A user's roles (code order) and groups (id order) as two arrays of the row whose id is `id`,
 * as the `users/me` view and every profile show them. Arrays come as JSON, which pg reads with
 * `JSON.parse`: its parser of PostgreSQL's array text took a tenth of `acl.users.get-many`.
 */
function rolesAndGroups(id: string): string {
  return `to_json(ARRAY(SELECT ur.role_code FROM user_roles ur WHERE ur.user_id = ${id}
                 ORDER BY ur.role_code COLLATE "C")::text[]) AS roles,
          to_json(ARRAY(SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${id}
                 ORDER BY gm.group_id)::text[]) AS groups`;
}

/** The union of the user's roles' permissions, each once, in code-unit order (`*` is kept as is). */
const permissionsOf = (id: string) =>
  `to_json(ARRAY(SELECT DISTINCT p.permission COLLATE "C"
           FROM user_roles ur JOIN roles r ON r.code = ur.role_code,
                unnest(r.permissions) AS p(permission)
          WHERE ur.user_id = ${id}
          ORDER BY 1)::text[]) AS permissions`;

interface References {
  id: string;
  roles: string[];
  permissions: string[];
  groups: string[];
}

/** The columns a profile shows (acl.users.get-many). */
interface ProfileRow extends References {
  email: string;
  first_name: string | null;
  last_name: string | null;
  employee_number: string | null;
  status: User['status'];
  manager_id: string | null;
}

interface UserRow extends ProfileRow {
  phone_number: string | null;
  date_joined: Date;
  last_login: Date | null;
  token_version: number;
  created_at: Date;
  updated_at: Date;
}

/** Every column of `users` but the password hash. */
const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, u.phone_number, u.employee_number, u.status,
         u.date_joined, u.manager_id, u.last_login, u.token_version, u.created_at, u.updated_at`;

/**
 * One user (`users/me`, every request that names one user), references by correlated subqueries:
 * a lookup by key, whose generic plan PostgreSQL keeps after five runs, so the statement is
 * neither parsed nor planned again.
 */
const LOAD_ONE = new PreparedQuery<UserRow>(
  'acl.users.load-one',
  `SELECT ${USER_COLUMNS}, ${rolesAndGroups('u.id')}, ${permissionsOf('u.id')}
     FROM users u
    WHERE u.id = $1::uuid`,
);

/**
 * The references of the users whose ids are in `$1`, set-based (one scan of each table for all of
 * them, where the subqueries above would run three times per user): `roles_of` and `groups_of`,
 * one row per user that has any, in the orders of the subqueries above, and `permissions_of`, the
 * union of each distinct set of roles among them (users mostly share a few sets: the union is
 * sorted and deduplicated once per set, not once per user, which was more than half of the
 * statement for 100 users of one role; docs/benchmarks.md, "acl.users.get-many").
 */
const REFERENCE_CTES = `
  roles_of AS (
    SELECT ur.user_id, array_agg(ur.role_code ORDER BY ur.role_code COLLATE "C")::text[] AS roles
      FROM user_roles ur WHERE ur.user_id = ANY($1::uuid[]) GROUP BY ur.user_id),
  groups_of AS (
    SELECT gm.user_id, array_agg(gm.group_id ORDER BY gm.group_id)::text[] AS groups
      FROM group_members gm WHERE gm.user_id = ANY($1::uuid[]) GROUP BY gm.user_id),
  permissions_of AS (
    SELECT s.roles,
           ARRAY(SELECT DISTINCT p.permission COLLATE "C"
                   FROM roles r, unnest(r.permissions) AS p(permission)
                  WHERE r.code = ANY (s.roles)
                  ORDER BY 1)::text[] AS permissions
      FROM (SELECT DISTINCT roles FROM roles_of) AS s)`;

/** Joins the reference CTEs to the ids in `u.id`; a user without any gets empty arrays. */
const REFERENCE_COLUMNS = `
  COALESCE(to_json(ro.roles), '[]') AS roles, COALESCE(to_json(go.groups), '[]') AS groups,
  COALESCE(to_json(po.permissions), '[]') AS permissions`;
const REFERENCE_JOINS = `
  LEFT JOIN roles_of ro ON ro.user_id = u.id
  LEFT JOIN groups_of go ON go.user_id = u.id
  LEFT JOIN permissions_of po ON po.roles = ro.roles`;

/** The columns a profile shows, no timestamps (their parsing was a tenth of `acl.users.get-many`). */
const PROFILE_COLUMNS = 'u.id, u.email, u.first_name, u.last_name, u.employee_number, u.manager_id, u.status';

/**
 * The profile of one user (`acl.users.get-many` of one id, what every claim asks): by key, as
 * `LOAD_ONE`, so PostgreSQL keeps its generic plan. Asked as a list of one, the statement below
 * was planned at every call (a custom plan for one id costs so much less than the generic plan's
 * for a list of unknown length that PostgreSQL never switches): 0.33 ms of planning beside
 * 0.08 ms of execution (docs/benchmarks.md, "The statements' share, by pg_stat_statements").
 */
const LOAD_PROFILE = new PreparedQuery<ProfileRow>(
  'acl.users.profile',
  `SELECT ${PROFILE_COLUMNS}, ${rolesAndGroups('u.id')}, ${permissionsOf('u.id')}
     FROM users u
    WHERE u.id = $1::uuid`,
);

/**
 * Profiles of many users (`acl.users.get-many`): parsed once per connection, planned per list
 * until PostgreSQL finds its generic plan as good as the lists' own (it did for lists of 100).
 */
const LOAD_PROFILES = new PreparedQuery<ProfileRow>(
  'acl.users.profiles',
  `WITH ${REFERENCE_CTES}
   SELECT ${PROFILE_COLUMNS}, ${REFERENCE_COLUMNS}
     FROM users u ${REFERENCE_JOINS}
    WHERE u.id = ANY($1::uuid[])`,
);

/** The references of users already read (a page of a list). */
const REFERENCES = new PreparedQuery<References>(
  'acl.users.references',
  `WITH ${REFERENCE_CTES}
   SELECT u.id, ${REFERENCE_COLUMNS}
     FROM unnest($1::uuid[]) AS u(id) ${REFERENCE_JOINS}`,
);

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
    tokenVersion: row.token_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/**
 * Loads users with their roles, effective permissions and groups in one statement, for one user or
 * any number of them (other apps ask for up to ACL_USERS_MAX_IDS at a time over NATS), never one
 * statement per user.
 */
@Injectable()
export class UserDirectoryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user whose id is `id` with the references, or undefined (unknown or malformed id). */
  async loadOne(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LoadedUser | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await LOAD_ONE.run(this.dataSource, [id.toLowerCase()], manager);
    if (!row) return undefined;
    return { user: toUser(row), roles: row.roles, permissions: row.permissions, groups: row.groups };
  }

  /** The profiles of the users among `ids` that exist, keyed by id (unknown and malformed ids are simply absent). */
  async profiles(ids: readonly string[]): Promise<Map<string, ProfiledUser>> {
    const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const out = new Map<string, ProfiledUser>();
    if (wanted.length === 0) return out;
    const rows =
      wanted.length === 1
        ? await LOAD_PROFILE.run(this.dataSource, wanted)
        : await LOAD_PROFILES.run(this.dataSource, [wanted]);
    for (const row of rows) {
      const user = {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        employeeNumber: row.employee_number,
        managerId: row.manager_id,
        status: row.status,
      };
      out.set(row.id, { user, roles: row.roles, permissions: row.permissions, groups: row.groups });
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
    const rows = await REFERENCES.run(this.dataSource, [users.map((u) => u.id)], manager);
    const references = new Map(rows.map((row) => [row.id, row]));
    for (const user of users) {
      const { roles = [], permissions = [], groups = [] } = references.get(user.id) ?? {};
      out.set(user.id, { user, roles, permissions, groups });
    }
    return out;
  }
}
