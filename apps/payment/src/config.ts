import { PlatformConfig } from '@media/platform';

/** payment's configuration: the platform's variables (CONTRACT §6). */
export class PaymentConfig extends PlatformConfig {}
