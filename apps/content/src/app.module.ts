import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { ContentConfig } from './config';
import { LineupModule } from './lineup/lineup.module';
import { StoryCategoriesModule } from './story-categories/story-categories.module';

@Module({})
export class ContentModule {
  static forRoot(config: ContentConfig, database: DatabaseParts): DynamicModule {
    return {
      module: ContentModule,
      imports: [
        PlatformModule.forApp({ name: 'content', config, database }),
        LineupModule,
        StoryCategoriesModule,
      ],
    };
  }
}
