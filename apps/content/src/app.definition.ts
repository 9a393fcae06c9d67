import type { AppDefinition } from '@media/platform';
import { ContentModule } from './app.module';
import { ContentConfig } from './config';
import { migrations } from './database/migrations';
import { BroadcastSchedule } from './lineup/broadcast-schedule.entity';
import { Slot, SlotAsset } from './lineup/slot.entity';
import { StoryCategory } from './story-categories/story-category.entity';

const database = { entities: [BroadcastSchedule, Slot, SlotAsset, StoryCategory], migrations };

/** How content boots, alone or inside the embedded default. */
export const contentApp: AppDefinition<ContentConfig> = {
  name: 'content',
  configClass: ContentConfig,
  database,
  rootModule: (config) => ContentModule.forRoot(config, database),
};
