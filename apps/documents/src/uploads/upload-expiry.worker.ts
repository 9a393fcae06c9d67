import { Logger } from '@nestjs/common';
import { APP_CONFIG } from '@media/kernel';
import { periodicJobProvider } from '@media/messaging';
import { DataSource } from 'typeorm';
import type { DocumentsConfig } from '../config';
import { UploadsService } from './uploads.service';

const BATCH = 100;
const logger = new Logger('UploadExpiry');

/**
 * Removes resumable uploads past `Upload-Expires` (bytes and row), every DOCUMENTS_SWEEP_INTERVAL,
 * one replica at a time; a full batch brings the next pass forward.
 */
export const uploadExpiryWorker = periodicJobProvider({
  name: 'UploadExpiry',
  inject: [DataSource, UploadsService, APP_CONFIG],
  useFactory: (dataSource: DataSource, uploads: UploadsService, config: DocumentsConfig) => ({
    every: config.sweeper.interval,
    firstAfter: 1_000,
    exclusive: { dataSource, lock: 'documents:upload-expiry' },
    actor: 'documents:upload-expiry',
    run: () => uploads.sweepExpired(BATCH),
    after: (removed: number) => (removed === BATCH ? 0 : config.sweeper.interval),
    onResult: (removed: number) => {
      if (removed > 0) logger.log({ removed }, 'Removed expired uploads');
    },
  }),
});
