import { chatNotificationsConfig } from './config';

const base = {
  PORT: '3008',
  DATABASE_URL: 'postgres://u@h/chat',
  NATS_URL: 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'x'.repeat(32),
};

describe('chat-notifications config', () => {
  it('gives senders 15 minutes to edit or delete a message by default', () => {
    expect(chatNotificationsConfig.load(base).chat).toEqual({ editWindow: 15 * 60_000 });
  });

  it('reads CHAT_EDIT_WINDOW as a duration of at least 1s', () => {
    expect(chatNotificationsConfig.load({ ...base, CHAT_EDIT_WINDOW: '1m' }).chat.editWindow).toBe(60_000);
    expect(() => chatNotificationsConfig.load({ ...base, CHAT_EDIT_WINDOW: '500ms' })).toThrow(
      /CHAT_EDIT_WINDOW must be at least 1s/,
    );
    expect(() => chatNotificationsConfig.load({ ...base, CHAT_EDIT_WINDOW: 'soon' })).toThrow(
      /CHAT_EDIT_WINDOW/,
    );
  });
});
