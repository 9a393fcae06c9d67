import { PlatformConfig } from '@media/platform';

/** chat-notifications's configuration: the platform's variables (CONTRACT §6). */
export class ChatNotificationsConfig extends PlatformConfig {}
