import type { NotificationPriority } from '@media/contracts';
import type { Page } from '@media/http';
import type { Notification } from './notification.entity';
import type { NotificationPreference } from './notification-preference.entity';

/** NotificationPreference of the seed (docs/api/contract.md §4.14). */
export interface PreferenceView {
  id: string;
  recipient_id: string;
  notification_type: string;
  channel: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface PreferencesView {
  preferences: PreferenceView[];
}

/** One inbox entry. */
export interface NotificationView {
  id: string;
  recipient_id: string;
  notification_type: string;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  priority: NotificationPriority;
  is_read: boolean;
  read_at: string | null;
  is_archived: boolean;
  archived_at: string | null;
  deliveries: { websocket: string; email: string };
  created_at: string;
}

/** A cursor page of the inbox, with the caller's unread count. */
export type InboxPage = Page<NotificationView> & { unread_count: number };

export interface ReadAllView {
  updated: number;
  unread_count: number;
}

export function toPreferenceView(p: NotificationPreference): PreferenceView {
  return {
    id: p.id,
    recipient_id: p.recipientId,
    notification_type: p.notificationType,
    channel: p.channel,
    enabled: p.enabled,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function toNotificationView(n: Notification): NotificationView {
  return {
    id: n.id,
    recipient_id: n.recipientId,
    notification_type: n.notificationType,
    title: n.title,
    body: n.body,
    data: n.data,
    priority: n.priority,
    is_read: n.readAt !== null,
    read_at: n.readAt?.toISOString() ?? null,
    is_archived: n.archivedAt !== null,
    archived_at: n.archivedAt?.toISOString() ?? null,
    deliveries: { websocket: n.websocketStatus, email: n.emailStatus },
    created_at: n.createdAt.toISOString(),
  };
}
