import { PlatformConfig } from '@media/platform';

/** acl's configuration: the platform's variables (CONTRACT §6). */
export class AclConfig extends PlatformConfig {}
