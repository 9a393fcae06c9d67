import { PlatformConfig } from '@media/platform';

/** documents's configuration: the platform's variables (CONTRACT §6). */
export class DocumentsConfig extends PlatformConfig {}
