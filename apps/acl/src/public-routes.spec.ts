import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod, type Type } from '@nestjs/common';
import { ACL_PUBLIC_ROUTES, APPS } from '@media/contracts';
import { aclApp } from './app.definition';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CorrespondentsModule } from './correspondents/correspondents.module';
import { GroupsModule } from './groups/groups.module';
import { KeysModule } from './keys/keys.module';
import { RolesModule } from './roles/roles.module';
import { UsersModule } from './users/users.module';

const IS_PUBLIC = 'auth:public';

/** Every HTTP route acl serves, with whether it is `@Public()`, from Nest's own metadata. */
function routes(modules: Type[]): { method: string; path: string; isPublic: boolean }[] {
  const found: { method: string; path: string; isPublic: boolean }[] = [];
  for (const module of modules) {
    const controllers: Type[] = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? [];
    for (const controller of controllers) {
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const path = [APPS.acl.prefix, base, String(Reflect.getMetadata(PATH_METADATA, handler))]
          .filter((part) => part !== '' && part !== '/')
          .join('/')
          .replace(/:([A-Za-z_]+)/g, '{$1}');
        const isPublic =
          Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller);
        found.push({ method, path: `/${path}`, isPublic: isPublic === true });
      }
    }
  }
  return found;
}

describe("acl's public routes", () => {
  const all = routes([
    AuthModule,
    UsersModule,
    GroupsModule,
    RolesModule,
    CorrespondentsModule,
    KeysModule,
    AnalyticsModule,
    AuditModule,
  ]);

  it('reads the routes of every feature (the walk itself works)', () => {
    expect(aclApp.name).toBe('acl');
    expect(all.length).toBeGreaterThan(15);
    expect(all).toContainEqual({ method: 'GET', path: '/acl/api/v1/users/me', isPublic: false });
  });

  it('are exactly the ones the gateway lets through without a token (ACL_PUBLIC_ROUTES)', () => {
    const marked = all.filter((route) => route.isPublic).map(({ method, path }) => ({ method, path }));
    expect(marked).toHaveLength(ACL_PUBLIC_ROUTES.length);
    expect(marked).toEqual(expect.arrayContaining([...ACL_PUBLIC_ROUTES]));
  });
});
