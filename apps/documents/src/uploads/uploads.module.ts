import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateUploads1765000000002 } from '../database/migrations/1765000000002-create-uploads';
import { DocumentsModule } from '../documents/documents.module';
import { uploadExpiryWorker } from './upload-expiry.worker';
import { Upload } from './upload.entity';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/** Resumable uploads (tus 1.0) that end as documents. */
@Feature({ entities: [Upload], migrations: [CreateUploads1765000000002] })
@Module({
  imports: [TypeOrmModule.forFeature([Upload]), DocumentsModule],
  controllers: [UploadsController],
  providers: [UploadsService, uploadExpiryWorker],
})
export class UploadsModule {}
