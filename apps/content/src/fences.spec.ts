import { describeFences } from '@media/testing';

describeFences('content', __dirname, {
  tables: ['broadcast_schedules', 'slots', 'slot_assets', 'story_categories'],
});
