import { defineApp, DeletedDocumentsModule } from '@media/platform';
import { LineupModule } from './lineup/lineup.module';
import { StoryCategoriesModule } from './story-categories/story-categories.module';

/** How content boots, alone or inside the embedded default: its features declare their own tables. */
export const contentApp = defineApp({
  name: 'content',
  features: [
    // The consumer keeps the name it had when lineup handled the event itself.
    DeletedDocumentsModule.forApp({ consumer: 'LineupService.onDocumentDeleted' }),
    LineupModule,
    StoryCategoriesModule,
  ],
});
