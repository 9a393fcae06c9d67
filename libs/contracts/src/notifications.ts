export const NotificationsSubjects = {
  send: 'notifications.send',
} as const;

export const ChatEvents = {
  messageCreated: 'chat.message.created',
} as const;

export interface SendNotificationRequest {
  recipient_ids: string[];
  notification_type: string;
  title: string;
  body?: string;
  data?: Record<string, unknown>;
}

export interface NotificationsRpc {
  [NotificationsSubjects.send]: { req: SendNotificationRequest; res: { delivered: number } };
}
