import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/kernel';
import { PeriodicJob } from '@media/messaging';
import type { DataSource } from 'typeorm';
import type { DocumentsConfig } from '../config';
import { DocumentStorage, documentIdOfKey, STORAGE_KEY } from '../storage/document-storage';
import { DocumentsService } from './documents.service';

/** The advisory lock's name: one replica sweeps at a time. */
const SWEEP_LOCK = 'documents:sweeper';
const BATCH = 500;

export interface SweepResult {
  /** Files of deleted records removed (their removal after commit had not happened). */
  deleted: number;
  /** Files with no record at all (upload crashed before its commit) or unfinished copies. */
  orphans: number;
}

/**
 * Removes stored files no live record points to: those of deleted records whose removal after
 * commit failed, and those whose record was never committed (older than DOCUMENTS_SWEEP_GRACE,
 * so an upload between storing and committing is left alone), the latter only in a storage this
 * installation owns. Runs every DOCUMENTS_SWEEP_INTERVAL and at start.
 */
@Injectable()
export class SweeperService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sweeper');
  private readonly job: PeriodicJob<SweepResult>;
  private warned = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DocumentStorage) private readonly storage: DocumentStorage,
    @Inject(DocumentsService) private readonly documents: DocumentsService,
    @InjectConfig() private readonly config: DocumentsConfig,
  ) {
    this.job = new PeriodicJob({
      name: 'Sweeper',
      actor: 'documents:sweeper',
      every: config.sweeper.interval,
      firstAfter: 1_000,
      exclusive: { dataSource, lock: SWEEP_LOCK },
      run: () => this.sweepPass(new Date()),
      onResult: (result) => {
        if (result.deleted + result.orphans > 0) this.logger.log(result, 'Swept stored files');
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  private async sweepPass(now: Date): Promise<SweepResult> {
    const deleted = await this.sweepDeleted();
    const orphans = (await this.ownsStorage()) ? await this.sweepOrphans(now) : 0;
    return { deleted, orphans };
  }

  /**
   * Whether the storage carries this installation's id (claimed on the first sweep). Another
   * installation's storage (say, tests and `npm start` both defaulting to `.data/documents`) is
   * left alone but for the files of our own deleted records.
   */
  private async ownsStorage(): Promise<boolean> {
    const [{ id }] = (await this.dataSource.query('SELECT id FROM storage_owner')) as { id: string }[];
    let owner = await this.storage.readOwner();
    if (owner === undefined) {
      await this.storage.claimOwner(id);
      owner = await this.storage.readOwner();
    }
    if (owner === id) return true;
    if (!this.warned) {
      this.warned = true;
      this.logger.warn(
        { owner, installation: id },
        'The storage belongs to another installation: files without a record there are not swept',
      );
    }
    return false;
  }

  private async sweepDeleted(): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT id FROM documents WHERE deleted_at IS NOT NULL AND file_removed_at IS NULL
         ORDER BY deleted_at LIMIT $1`,
        [BATCH],
      )) as { id: string }[];
      let progress = 0;
      for (const { id } of rows) if (await this.documents.removeFile(id)) progress++;
      removed += progress;
      if (rows.length < BATCH || progress === 0) return removed;
    }
  }

  private async sweepOrphans(now: Date): Promise<number> {
    const cutoff = now.getTime() - this.config.sweeper.grace;
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const ids = [...new Set(batch.map((key) => documentIdOfKey(key) ?? ''))];
      const live = new Set(
        (
          (await this.dataSource.query(
            `SELECT id FROM documents WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
            [ids],
          )) as { id: string }[]
        ).map((r) => r.id),
      );
      for (const key of batch) {
        // A complete file of a live record stays; anything else here is garbage.
        if (STORAGE_KEY.test(key) && live.has(key)) continue;
        await this.storage.remove(key);
        removed++;
      }
      batch = [];
    };
    for await (const file of this.storage.list()) {
      if (file.modifiedAt.getTime() > cutoff) continue;
      batch.push(file.key);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }
}
