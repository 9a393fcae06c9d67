import { Inject } from '@nestjs/common';
import { APP_CONFIG } from './tokens';

/** Injects the app's typed config: `constructor(@InjectConfig() config: AclConfig)`. */
export const InjectConfig = (): ParameterDecorator => Inject(APP_CONFIG);
