/** The union of the roles' permissions, sorted, each once; `*` is kept as is (it grants all). */
export function effectivePermissions(roles: readonly { permissions: readonly string[] }[]): string[] {
  const all = new Set<string>();
  for (const role of roles) for (const permission of role.permissions) all.add(permission);
  return [...all].sort();
}
