import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { AssignmentConfig } from './config';

@Module({})
export class AssignmentModule {
  static forRoot(config: AssignmentConfig, database: DatabaseParts): DynamicModule {
    return {
      module: AssignmentModule,
      imports: [PlatformModule.forApp({ name: 'assignment', config, database })],
    };
  }
}
