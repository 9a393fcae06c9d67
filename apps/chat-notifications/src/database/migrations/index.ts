import { CreateChat1764800000000 } from './1764800000000-create-chat';
import { CreateNotifications1764800000001 } from './1764800000001-create-notifications';

/** chat-notifications's migrations, in order. */
export const migrations = [CreateChat1764800000000, CreateNotifications1764800000001];
