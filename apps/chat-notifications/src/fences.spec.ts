import { describeFences } from '@media/testing';

describeFences('chat-notifications', __dirname, {
  tables: ['chat_rooms', 'chat_messages', 'notifications', 'notification_settings', 'webhook_endpoints'],
  alsoWrites: {
    // Tables a feature's own migration creates and only its SQL writes (no entity maps them).
    chat: ['chat_mentions'],
    realtime: ['ws_tickets', 'ws_frames', 'ws_payloads', 'ws_user_seqs'],
    webhooks: ['webhook_events', 'webhook_attempts'],
    // New settings release what waited under the old ones: emails kept for a digest that was
    // turned off go back to `pending`, held ones are looked at again at once.
    settings: ['notifications'],
    // The digest holds entries' pushes and emails (their status, held_until and email claim)
    // and moves a user's next digest with its claim (the columns its migration adds).
    digest: ['notifications', 'notification_settings'],
  },
});
