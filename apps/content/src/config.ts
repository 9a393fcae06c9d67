import { PlatformConfig } from '@media/platform';

/** content's configuration: the platform's variables (CONTRACT §6). */
export class ContentConfig extends PlatformConfig {}
