import { Injectable } from '@nestjs/common';
import { systemResolver, type Resolver } from './address-policy';

/**
 * The resolver of this app's webhook checks and deliveries, one per process: node's `dns.lookup`.
 * Tests replace `resolve` on the instance (a resolver that changes its answer between the check
 * and the connection) without any setting in the app.
 */
@Injectable()
export class ResolverService {
  resolve: Resolver = systemResolver;
}
