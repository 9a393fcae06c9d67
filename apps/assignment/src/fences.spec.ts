import { describeFences } from '@media/testing';

describeFences('assignment', __dirname, {
  tables: ['tasks'],
  alsoWrites: {
    // A claim writes its event's outbox row in the statement that claims (one CTE), so the two
    // commit together: the platform's outbox, written as the platform's Outbox would.
    tasks: ['outbox'],
    // The escalator raises tasks' escalation_level (and updated_at), nothing else of a task.
    escalation: ['tasks'],
  },
});
