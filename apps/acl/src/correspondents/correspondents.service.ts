import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { AclEvents, type CorrespondentInvitedEvent } from '@media/contracts';
import { Gone, NotFound, Outbox, Paginator, InjectConfig, type AuthUser, type Page } from '@media/platform';
import type { DataSource } from 'typeorm';
import { newSecretToken, sha256 } from '../auth/secret-tokens';
import { hashPassword } from '../auth/passwords';
import type { AclConfig } from '../config';
import { isUuid, UserDirectory } from '../users/user-directory.service';
import { User } from '../users/user.entity';
import { userConflict } from '../users/users.service';
import { displayName, toUserView, type UserView } from '../users/user-view';
import type { InviteCorrespondentDto, ListCorrespondentsQuery } from './dto/correspondent.dto';
import { Invitation } from './invitation.entity';
import { NEWEST_JOINED_FIRST } from '../users/user-order';

export const CORRESPONDENT_ROLE = 'CORRESPONDENT';

/** The Correspondent resource of the seed. */
export interface CorrespondentView {
  id: string;
  name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  status: User['status'];
  date_joined: string;
}

export interface InvitedCorrespondentView extends CorrespondentView {
  invitation: { token: string; expires_at: string };
}

export function toCorrespondentView(user: User): CorrespondentView {
  return {
    id: user.id,
    name: displayName(user),
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    phone_number: user.phoneNumber,
    status: user.status,
    date_joined: user.dateJoined.toISOString(),
  };
}

/** Endpoint 7: correspondents, their invitations and the acceptance that activates them. */
@Injectable()
export class CorrespondentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(UserDirectory) private readonly directory: UserDirectory,
    @InjectConfig() private readonly config: AclConfig,
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
    try {
      const user = await this.dataSource.transaction(async (manager) => {
        const users = manager.getRepository(User);
        const created = await users.save(
          users.create({
            email: dto.email,
            passwordHash: null,
            firstName: dto.first_name ?? null,
            lastName: dto.last_name ?? null,
            phoneNumber: dto.phone_number ?? null,
            status: 'INVITED',
            dateJoined: now,
          }),
        );
        await manager.query(`INSERT INTO user_roles (user_id, role_code) VALUES ($1, $2)`, [
          created.id,
          CORRESPONDENT_ROLE,
        ]);
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
    } catch (error) {
      throw userConflict(error) ?? error;
    }
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
      const user = await manager
        .getRepository(User)
        .findOne({ where: { id: invitation.userId }, lock: { mode: 'pessimistic_write' } });
      if (!user || user.status !== 'INVITED') throw new NotFound('Invitation');
      if (invitation.expiresAt.getTime() <= Date.now())
        throw new Gone('This invitation has expired; ask for a new one.', 'invitation_expired');
      const passwordHash = await hashPassword(password);
      await manager.getRepository(User).update({ id: user.id }, { passwordHash, status: 'ACTIVE' });
      await manager.getRepository(Invitation).update({ id: invitation.id }, { acceptedAt: new Date() });
      return user.id;
    });
    const loaded = (await this.directory.load([userId])).get(userId);
    if (!loaded) throw new NotFound('User', userId);
    return toUserView(loaded);
  }
}
