import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig, PeriodicJob } from '@media/platform';
import type { DataSource } from 'typeorm';
import type { DocumentsConfig } from '../config';
import { UploadsService } from './uploads.service';

const BATCH = 100;

/**
 * Removes resumable uploads past `Upload-Expires` (bytes and row), every DOCUMENTS_SWEEP_INTERVAL,
 * one replica at a time; a full batch brings the next pass forward.
 */
@Injectable()
export class UploadExpiryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('UploadExpiry');
  private readonly job: PeriodicJob<number>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(UploadsService) uploads: UploadsService,
    @InjectConfig() config: DocumentsConfig,
  ) {
    this.job = new PeriodicJob({
      name: 'UploadExpiry',
      every: config.sweeper.interval,
      firstAfter: 1_000,
      exclusive: { dataSource, lock: 'documents:upload-expiry' },
      run: () => uploads.sweepExpired(BATCH),
      after: (removed) => (removed === BATCH ? 0 : config.sweeper.interval),
      onResult: (removed) => {
        if (removed > 0) this.logger.log({ removed }, 'Removed expired uploads');
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }
}
