import { defineApp, DeletedDocumentsModule } from '@media/platform';
import { LineupModule } from './lineup/lineup.module';
import { StoryCategoriesModule } from './story-categories/story-categories.module';

/** How content boots, alone or inside the embedded default: its features declare their own tables. */
export const contentApp = defineApp({
  name: 'content',
  features: [
    // The durable consumer's name, under which its position and processed events are kept.
    DeletedDocumentsModule.forApp({ consumer: 'LineupService.onDocumentDeleted' }),
    LineupModule,
    StoryCategoriesModule,
  ],
});
