import { Logger } from '@nestjs/common';
import { periodicJobProvider } from '@media/messaging';
import { DataSource } from 'typeorm';
import { SessionRetentionService } from './session-retention.service';

const EVERY_MS = 60 * 60_000;
const logger = new Logger('SessionRetention');

/** Deletes the refresh tokens of ended sessions every hour, one replica at a time. */
export const sessionRetentionWorker = periodicJobProvider({
  name: 'SessionRetention',
  inject: [DataSource, SessionRetentionService],
  useFactory: (dataSource: DataSource, retention: SessionRetentionService) => ({
    every: EVERY_MS,
    firstAfter: 60_000,
    jitter: 0.1,
    exclusive: { dataSource, lock: 'acl:session-retention' },
    run: () => retention.prune(new Date()),
    onResult: (deleted: number) => {
      if (deleted > 0) logger.log({ deleted }, 'Deleted the refresh tokens of ended sessions');
    },
  }),
});
