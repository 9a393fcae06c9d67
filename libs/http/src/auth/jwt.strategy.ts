import type { KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AccessTokenClaims } from '@media/contracts';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { InjectConfig } from '@media/kernel';
import type { PlatformConfig } from '@media/core';
import {
  userFromClaims,
  type AuthUser,
  JwksKeyStore,
  VerifiedTokens,
  bearerToken,
  checkTokenTimes,
  keyObjectForToken,
  TOKEN_ALGORITHMS,
  tokenRules,
  type TokenRules,
} from '@media/core';

/** Registered under the app's own name, so nine apps in one process do not share a strategy. */
export function jwtStrategyName(app: string): string {
  return `jwt:${app}`;
}

/** Builds the passport-jwt strategy class for one app (verification against acl's JWKS). */
export function createJwtStrategy(app: string) {
  @Injectable()
  class JwtStrategy extends PassportStrategy(Strategy, jwtStrategyName(app)) {
    private readonly rules: TokenRules;

    constructor(
      @InjectConfig() { auth }: PlatformConfig,
      keys: JwksKeyStore,
      private readonly verified: VerifiedTokens,
    ) {
      super({
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        passReqToCallback: true,
        algorithms: TOKEN_ALGORITHMS,
        issuer: auth.issuer,
        audience: auth.audience,
        ignoreExpiration: false,
        secretOrKeyProvider: (
          _req: Request,
          rawToken: string,
          done: (err: unknown, key?: string) => void,
        ) => {
          keyObjectForToken(keys, rawToken).then(
            // jsonwebtoken 9 takes a KeyObject as is (its typings here only say string | Buffer);
            // a PEM would be parsed again on every request.
            (key: KeyObject) => done(null, key as unknown as string),
            (error: unknown) => done(error),
          );
        },
      });
      this.rules = tokenRules(auth);
    }

    validate(req: Request, claims: AccessTokenClaims): AuthUser {
      checkTokenTimes(claims, this.rules);
      // The guard answers this token's next requests from here (VerifiedTokens).
      const token = bearerToken(req.headers.authorization);
      if (token) this.verified.remember(token, claims);
      return userFromClaims(claims);
    }
  }
  return JwtStrategy;
}
