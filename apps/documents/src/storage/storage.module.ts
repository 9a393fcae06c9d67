import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '@media/kernel';
import { Feature } from '@media/platform';
import type { DocumentsConfig } from '../config';
import { DocumentStorage } from './document-storage';
import { FsDocumentStorage } from './fs-storage';
import { CreateStorageOwner1765000000001 } from '../database/migrations/1765000000001-create-storage-owner';

/**
 * The driver DOCUMENTS_STORAGE names, configured from the app's variables. The S3 driver (and
 * the AWS SDK, a second of start-up) is loaded only when it is the one chosen.
 */
export function createStorage(storage: DocumentsConfig['storage']): DocumentStorage {
  if (storage.driver !== 's3') return new FsDocumentStorage(storage.dir);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3DocumentStorage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3DocumentStorage(storage);
}

@Feature({ migrations: [CreateStorageOwner1765000000001] })
@Global()
@Module({
  providers: [
    {
      provide: DocumentStorage,
      inject: [APP_CONFIG],
      useFactory: ({ storage: options }: DocumentsConfig) => {
        const storage = createStorage(options);
        new Logger('Storage').log(
          options.driver === 's3'
            ? `Stored files in bucket ${options.bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`
            : `Stored files under ${options.dir}`,
        );
        return storage;
      },
    },
  ],
  exports: [DocumentStorage],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(DocumentStorage) private readonly storage: DocumentStorage) {}

  onApplicationShutdown(): void {
    this.storage.destroy();
  }
}
