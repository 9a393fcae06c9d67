import { PlatformConfig } from '@media/platform';

/** commercial's configuration: the platform's variables (CONTRACT §6). */
export class CommercialConfig extends PlatformConfig {}
