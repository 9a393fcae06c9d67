import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Feature, PLATFORM_CONFIG } from '@media/platform';
import type { DocumentsConfig } from '../config';
import { DocumentStorage } from './document-storage';
import { FsDocumentStorage } from './fs-storage';
import { S3DocumentStorage } from './s3-storage';
import { CreateStorageOwner1765000000001 } from '../database/migrations/1765000000001-create-storage-owner';

/** The driver DOCUMENTS_STORAGE names, configured from the app's variables. */
export function createStorage(config: DocumentsConfig): DocumentStorage {
  if (config.DOCUMENTS_STORAGE === 's3') {
    return new S3DocumentStorage({
      bucket: config.S3_BUCKET ?? '',
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE === 'true',
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
      prefix: config.S3_PREFIX,
    });
  }
  return new FsDocumentStorage(config.storageDir());
}

@Feature({ migrations: [CreateStorageOwner1765000000001] })
@Global()
@Module({
  providers: [
    {
      provide: DocumentStorage,
      inject: [PLATFORM_CONFIG],
      useFactory: (config: DocumentsConfig) => {
        const storage = createStorage(config);
        new Logger('Storage').log(
          storage.kind === 's3'
            ? `Stored files in bucket ${config.S3_BUCKET}${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''}`
            : `Stored files under ${config.storageDir()}`,
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
    if (this.storage instanceof S3DocumentStorage) this.storage.destroy();
  }
}
