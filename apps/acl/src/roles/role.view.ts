/** A role as `GET /roles` shows it. */
export interface RoleView {
  code: string;
  name: string;
  permissions: string[];
}
