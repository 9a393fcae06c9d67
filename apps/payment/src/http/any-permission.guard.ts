/** Endpoint 9 needs `commissions:read` or `:read-all`: the platform's any-of guard. */
export { AnyPermissionGuard, RequireAnyPermission } from '@media/platform';
