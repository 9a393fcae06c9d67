import { PlatformConfig } from '@media/platform';

/** assignment's configuration: the platform's variables (CONTRACT §6). */
export class AssignmentConfig extends PlatformConfig {}
