import { PlatformConfig } from '@media/platform';

/** inventory's configuration: the platform's variables (CONTRACT §6). */
export class InventoryConfig extends PlatformConfig {}
