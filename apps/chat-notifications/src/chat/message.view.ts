import type { ChatMessage } from './chat-message.entity';

/** A chat message as the API and the `chat.message` push show it. */
export interface MessageView {
  id: string;
  room_id: string;
  sender: string;
  body: string;
  created_at: string;
}

export function toMessageView(m: ChatMessage): MessageView {
  return {
    id: m.id,
    room_id: m.roomId,
    sender: m.sender,
    body: m.body,
    created_at: m.createdAt.toISOString(),
  };
}
