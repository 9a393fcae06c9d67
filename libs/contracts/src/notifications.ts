export const NotificationsSubjects = {
  send: 'notifications.send',
} as const;

export const ChatEvents = {
  messageCreated: 'chat.message.created',
} as const;

/**
 * Core NATS subject (not durable, not in the EVENTS stream) on which chat-notifications replicas
 * share live pushes: every replica hears every push and writes it to its own sockets.
 */
export const CHAT_PUSH_SUBJECT = 'chat-notifications.push';

/** The inbox type of the notification a mentioned user gets (docs/api/contract.md §7.4). */
export const CHAT_MENTION_NOTIFICATION = 'chat.mention';

/** Notification channels (docs/api/contract.md §4.14). */
export const NOTIFICATION_CHANNELS = ['websocket', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Priority of an inbox entry, as tasks have (docs/api/contract.md §7.3); `URGENT` is never held. */
export const NOTIFICATION_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** What another app sends to put an entry in users' inboxes. */
export interface SendNotificationRequest {
  recipient_ids: string[];
  notification_type: string;
  title: string;
  body?: string | null;
  data?: Record<string, unknown>;
  /** Default `MEDIUM`. */
  priority?: NotificationPriority;
}

export interface NotificationsRpc {
  /** `delivered`: inbox entries created (one per distinct recipient). */
  [NotificationsSubjects.send]: { req: SendNotificationRequest; res: { delivered: number } };
}

/** Payload of `chat.message.created`. */
export interface ChatMessageCreatedEvent {
  message_id: string;
  room_id: string;
  room_name: string;
  sender: string;
  body: string;
  created_at: string;
  /** The room's members other than the sender when the message was posted. */
  recipient_ids: string[];
}

/**
 * A websocket frame pushed to a client: `{event, data, seq}`, `seq` increasing per user
 * (docs/api/chat-notifications.md, live push); `resync` (data null) when a resume cannot be served.
 */
export type PushEventName =
  | 'chat.message'
  | 'chat.message.updated'
  | 'chat.message.deleted'
  | 'notification'
  | 'resync';
export interface PushFrame<T = unknown> {
  event: PushEventName;
  data: T;
  seq: number;
}

/** One push shared between replicas on CHAT_PUSH_SUBJECT: `seqs[i]` is the frame's seq for `user_ids[i]`. */
export interface PushEnvelope<T = unknown> {
  event: PushEventName;
  data: T;
  user_ids: string[];
  seqs: number[];
}

/** Error codes chat-notifications answers beyond the common ones (docs/api/contract.md §1, §4.1). */
export const ChatErrorCodes = {
  editWindowClosed: 'edit_window_closed',
  messageDeleted: 'message_deleted',
  notGroupMember: 'not_group_member',
  roomInactive: 'room_inactive',
  roomIsDirect: 'room_is_direct',
} as const;
export type ChatErrorCode = (typeof ChatErrorCodes)[keyof typeof ChatErrorCodes];
