import type { ApiClient } from '@media/client';
import { all, ok } from './api';
import { ROOMS, email } from './data';
import type { People, Seeding } from './seeding';

/** Group rooms with messages (chat-notifications). */
export async function seedRooms(s: Seeding, p: People): Promise<void> {
  const { report, log } = s;
  const { admin, editor, sales, groups, users } = p;
  log('rooms');
  const rooms = new Set(
    (
      await all(async (cursor) => {
        // chat-notifications envelopes its pages: `{success, message, data: {results, next}}`.
        const answer = await admin.GET('/api/v1/chat/rooms', {
          params: { query: { cursor, page_size: 100 } },
        });
        return { ...answer, data: answer.data?.data };
      }, 'list rooms')
    ).map((r) => r.name),
  );
  const speakers: Record<string, ApiClient> = { admin, editor, sales };
  for (const room of ROOMS) {
    if (rooms.has(room.name)) {
      report.found('rooms');
      continue;
    }
    const made = await ok(
      admin.POST('/api/v1/chat/rooms', {
        body: {
          name: room.name,
          group_id: groups.get(room.group)!,
          member_ids: room.members.map((m) => users.get(email(m))!).filter(Boolean),
          document_id: null,
        },
      }),
      `create room ${room.name}`,
    );
    report.made('rooms');
    for (const [who, body] of room.messages) {
      await ok(
        speakers[who].POST('/api/v1/chat/rooms/{id}/messages', {
          params: { path: { id: made.data.id } },
          body: { body },
        }),
        'post a message',
      );
      report.made('messages');
    }
  }
}

/** Notification preferences (upserts: a second run changes nothing). */
export async function seedPreferences(s: Seeding, p: People): Promise<void> {
  const { report, log } = s;
  const { admin, editor, sales } = p;
  log('notification preferences');
  const preferences: [
    ApiClient,
    { notification_type: string; channel: 'websocket' | 'email'; enabled: boolean }[],
  ][] = [
    [
      admin,
      [
        { notification_type: '*', channel: 'email', enabled: false },
        { notification_type: 'assignment.task.escalated', channel: 'email', enabled: true },
      ],
    ],
    [
      editor,
      [
        { notification_type: '*', channel: 'websocket', enabled: true },
        { notification_type: 'chat.message.created', channel: 'email', enabled: false },
      ],
    ],
    [sales, [{ notification_type: 'assignment.task.claimed', channel: 'websocket', enabled: false }]],
  ];
  for (const [client, body] of preferences) {
    await ok(client.PUT('/api/v1/notifications/preferences', { body }), 'set notification preferences');
    report.found('preference sets');
  }
}
