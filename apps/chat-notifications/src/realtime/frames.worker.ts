import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectConfig, PeriodicJob } from '@media/platform';
import type { ChatNotificationsConfig } from '../config';
import { FramesService } from './frames.service';

/** Payloads deleted per statement (with their frames: up to this times a room's size). */
const PRUNE_BATCH = 200;
/** Pruning runs at least this often, and at least once per WS_RESUME_WINDOW. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Deletes websocket frames older than WS_RESUME_WINDOW. Every replica runs it; they share the
 * rows (SKIP LOCKED), so two replicas never delete the same payload or wait on each other. A
 * frame older than the window that is still there is never replayed to a resuming client
 * (FramesService.resumePoint looks at the window itself), so pruning late costs only space.
 */
@Injectable()
export class FramesWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FramesPrune');
  private readonly job: PeriodicJob<number>;

  constructor(
    @Inject(FramesService) private readonly frames: FramesService,
    @InjectConfig() config: ChatNotificationsConfig,
  ) {
    const every = Math.min(PRUNE_EVERY_MS, config.realtime.resumeWindow);
    this.job = new PeriodicJob({
      name: 'FramesPrune',
      every,
      jitter: 0.2,
      firstAfter: every,
      after: (deleted) => (deleted === PRUNE_BATCH ? 0 : every),
      run: () => this.frames.prune(PRUNE_BATCH),
      onResult: (deleted) => {
        if (deleted > 0) this.logger.debug({ payloads: deleted }, 'websocket frames pruned');
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
