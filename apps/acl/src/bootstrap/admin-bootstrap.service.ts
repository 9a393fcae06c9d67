import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConfig } from '@media/kernel';
import type { AclConfig } from '../config';
import { hashPassword } from '../credentials/passwords';
import { UserAccountsService } from '../users/user-accounts.service';

/**
 * Creates the first administrator from ADMIN_EMAIL / ADMIN_PASSWORD when no user has that email
 * (docs/api/contract.md §4a). An existing user is never touched, so restarts and replicas change nothing and
 * a password changed since is not reset.
 */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminBootstrapService');

  constructor(
    @InjectConfig() private readonly config: AclConfig,
    @Inject(UserAccountsService) private readonly accounts: UserAccountsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.admin.email?.trim().toLowerCase();
    if (!email) return;
    if (!this.config.admin.password) {
      this.logger.warn('ADMIN_EMAIL is set without ADMIN_PASSWORD; no administrator was created');
      return;
    }
    // Checked before hashing: argon2 is slow on purpose, and every restart would pay it.
    if (await this.accounts.emailTaken(email)) return;
    const passwordHash = await hashPassword(this.config.admin.password);
    if (await this.accounts.createFirstAdmin(email, passwordHash)) {
      this.logger.log(`Created the administrator ${email}`);
    }
  }
}
