import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { AclEvents, type CorrespondentInvitedEvent } from '@media/contracts';
import { Gone, NotFound, isUuid, type AuthUser } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { Outbox } from '@media/messaging';
import { Paginator, type Page } from '@media/http';
import type { DataSource } from 'typeorm';
import { newSecretToken, sha256 } from '../credentials/secret-tokens';
import { hashPassword } from '../credentials/passwords';
import type { AclConfig } from '../config';
import { UserAccountsService } from '../users/user-accounts.service';
import { UserDirectoryService } from '../users/user-directory.service';
import { User } from '../users/user.entity';
import { displayName, toUserView, type UserView } from '../users/user.view';
import {
  toCorrespondentView,
  type CorrespondentView,
  type InvitedCorrespondentView,
} from './correspondent.view';
import type { InviteCorrespondentDto, ListCorrespondentsQuery } from './dto/correspondent.dto';
import { Invitation } from './invitation.entity';
import { NEWEST_JOINED_FIRST } from '../users/user-order';

export const CORRESPONDENT_ROLE = 'CORRESPONDENT';

/** Correspondents, their invitations and the acceptance that activates them. */
@Injectable()
export class CorrespondentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(UserDirectoryService) private readonly directory: UserDirectoryService,
    @InjectConfig() private readonly config: AclConfig,
    @Inject(UserAccountsService) private readonly accounts: UserAccountsService,
  ) {}

  /** Users holding the CORRESPONDENT role, by `date_joined` desc then `id` desc. */
  list(query: ListCorrespondentsQuery, req: Request): Promise<Page<CorrespondentView>> {
    const qb = this.dataSource
      .getRepository(User)
      .createQueryBuilder('u')
      .where('EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_code = :role)', {
        role: CORRESPONDENT_ROLE,
      });
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    return this.paginator.paginate(qb, NEWEST_JOINED_FIRST, query, req, toCorrespondentView);
  }

  /**
   * Creates the INVITED user, its single-use invitation and the `acl.correspondent.invited`
   * event in one transaction. Two concurrent invitations of one email meet at the unique index:
   * one commits, the other is a 409.
   */
  async invite(dto: InviteCorrespondentDto, inviter: AuthUser): Promise<InvitedCorrespondentView> {
    const token = newSecretToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.invitations.ttl);
    const user = await this.dataSource.transaction(async (manager) => {
      const created = await this.accounts.createInvited(
        manager,
        {
          email: dto.email,
          firstName: dto.first_name ?? null,
          lastName: dto.last_name ?? null,
          phoneNumber: dto.phone_number ?? null,
          dateJoined: now,
        },
        CORRESPONDENT_ROLE,
      );
      await manager.getRepository(Invitation).insert({
        userId: created.id,
        tokenHash: sha256(token),
        invitedBy: isUuid(inviter.id) ? inviter.id : null,
        expiresAt,
      });
      const event: CorrespondentInvitedEvent = {
        user_id: created.id,
        email: created.email,
        name: displayName(created),
        invited_by: inviter.id,
        expires_at: expiresAt.toISOString(),
      };
      await this.outbox.enqueue(manager, AclEvents.correspondentInvited, event);
      return created;
    });
    return { ...toCorrespondentView(user), invitation: { token, expires_at: expiresAt.toISOString() } };
  }

  /**
   * Sets the password and activates the user. Unknown, used or withdrawn (the user is no longer
   * INVITED) tokens are 404; an expired one is 410. The row lock makes the token single-use even
   * under concurrent accepts.
   */
  async accept(token: string, password: string): Promise<UserView> {
    const userId = await this.dataSource.transaction(async (manager) => {
      const invitation = await manager
        .getRepository(Invitation)
        .findOne({ where: { tokenHash: sha256(token) }, lock: { mode: 'pessimistic_write' } });
      if (!invitation || invitation.acceptedAt) throw new NotFound('Invitation');
      const user = await this.accounts.lockForUpdate(manager, invitation.userId);
      if (!user || user.status !== 'INVITED') throw new NotFound('Invitation');
      if (invitation.expiresAt.getTime() <= Date.now())
        throw new Gone('This invitation has expired; ask for a new one.', 'invitation_expired');
      const passwordHash = await hashPassword(password);
      await this.accounts.activate(manager, user.id, passwordHash);
      await manager.getRepository(Invitation).update({ id: invitation.id }, { acceptedAt: new Date() });
      return user.id;
    });
    const loaded = await this.directory.loadOne(userId);
    if (!loaded) throw new NotFound('User', userId);
    return toUserView(loaded);
  }
}
