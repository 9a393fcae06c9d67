import type { ClientView } from '@media/contracts';
import type { Client } from './client.entity';

/** The client as the API shows it. */
export function toClientView(client: Client): ClientView {
  return {
    id: client.id,
    name: client.name,
    category: client.category,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  };
}
