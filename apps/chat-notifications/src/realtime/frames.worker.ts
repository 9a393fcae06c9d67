import { Logger } from '@nestjs/common';
import { APP_CONFIG } from '@media/kernel';
import { periodicJobProvider } from '@media/messaging';
import type { ChatNotificationsConfig } from '../config';
import { FramesService } from './frames.service';

/** Payloads deleted per statement (with their frames: up to this times a room's size). */
const PRUNE_BATCH = 200;
/** Pruning runs at least this often, and at least once per WS_RESUME_WINDOW. */
const PRUNE_EVERY_MS = 60_000;
const logger = new Logger('FramesPrune');

/**
 * Deletes websocket frames older than WS_RESUME_WINDOW. Every replica runs it; they share the
 * rows (SKIP LOCKED), so two replicas never delete the same payload or wait on each other. A
 * frame older than the window that is still there is never replayed to a resuming client
 * (FramesService.resumePoint looks at the window itself), so pruning late costs only space.
 */
export const framesWorker = periodicJobProvider({
  name: 'FramesPrune',
  inject: [FramesService, APP_CONFIG],
  useFactory: (frames: FramesService, config: ChatNotificationsConfig) => {
    const every = Math.min(PRUNE_EVERY_MS, config.realtime.resumeWindow);
    return {
      every,
      jitter: 0.2,
      firstAfter: every,
      after: (deleted: number) => (deleted === PRUNE_BATCH ? 0 : every),
      run: () => frames.prune(PRUNE_BATCH),
      onResult: (deleted: number) => {
        if (deleted > 0) logger.debug({ payloads: deleted }, 'websocket frames pruned');
      },
    };
  },
});
