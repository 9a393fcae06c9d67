import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type AuthUser, NotFound } from '@media/core';
import { changedRows } from '@media/kernel';
import { newestFirst, Paginator } from '@media/http';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { ListNotificationsQuery } from './dto/notification.dto';
import { Notification } from './notification.entity';
import {
  toNotificationView,
  type InboxPage,
  type NotificationView,
  type ReadAllView,
} from './notifications.view';

/** The caller's inbox; another user's entry is a 404. */
@Injectable()
export class InboxService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  async list(query: ListNotificationsQuery, req: Request, user: AuthUser): Promise<InboxPage> {
    const qb = this.dataSource
      .getRepository(Notification)
      .createQueryBuilder('n')
      .where('n.recipient_id = :me', { me: user.id })
      .andWhere(query.archived ? 'n.archived_at IS NOT NULL' : 'n.archived_at IS NULL');
    if (query.unread === true) qb.andWhere('n.read_at IS NULL');
    if (query.unread === false) qb.andWhere('n.read_at IS NOT NULL');
    const [page, unread] = await Promise.all([
      this.paginator.paginate(
        qb,
        newestFirst('n.created_at', (n) => n.createdAt),
        query,
        req,
        toNotificationView,
      ),
      this.unreadCount(user.id),
    ]);
    return { ...page, unread_count: unread };
  }

  async markRead(id: string, user: AuthUser): Promise<NotificationView> {
    return this.change(id, user, `read_at = COALESCE(read_at, clock_timestamp())`);
  }

  async archive(id: string, user: AuthUser): Promise<NotificationView> {
    return this.change(id, user, `archived_at = COALESCE(archived_at, clock_timestamp())`);
  }

  async readAll(user: AuthUser): Promise<ReadAllView> {
    const result: unknown = await this.dataSource.query(
      `UPDATE notifications SET read_at = clock_timestamp()
        WHERE recipient_id = $1 AND read_at IS NULL AND archived_at IS NULL RETURNING id`,
      [user.id],
    );
    return { updated: changedRows(result).length, unread_count: await this.unreadCount(user.id) };
  }

  /** Unread entries that are not archived (the default list's unread ones). */
  private async unreadCount(userId: string): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM notifications WHERE recipient_id = $1 AND read_at IS NULL AND archived_at IS NULL`,
      [userId],
    );
    return row.n;
  }

  private async change(id: string, user: AuthUser, assignment: string): Promise<NotificationView> {
    const result: unknown = await this.dataSource.query(
      `UPDATE notifications SET ${assignment} WHERE id = $1 AND recipient_id = $2 RETURNING id`,
      [id.toLowerCase(), user.id],
    );
    if (changedRows(result).length === 0) throw new NotFound('Notification', id);
    const row = await this.dataSource.getRepository(Notification).findOneByOrFail({ id: id.toLowerCase() });
    return toNotificationView(row);
  }
}
