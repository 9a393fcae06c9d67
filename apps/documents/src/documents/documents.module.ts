import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Document } from './document.entity';
import { DocumentsRpc } from './documents.rpc';
import { DocumentsController } from './documents.controller';
import { DocumentsService } from './documents.service';
import { SweeperService } from './sweeper.service';
import { Feature } from '@media/platform';
import { CreateDocuments1765000000000 } from '../database/migrations/1765000000000-create-documents';
import { AuditTrailDocuments1765000000100 } from '../database/migrations/1765000000100-audit-trail';

@Feature({
  entities: [Document],
  migrations: [CreateDocuments1765000000000, AuditTrailDocuments1765000000100],
})
@Module({
  imports: [TypeOrmModule.forFeature([Document])],
  controllers: [DocumentsController, DocumentsRpc],
  providers: [DocumentsService, SweeperService],
  exports: [DocumentsService, SweeperService],
})
export class DocumentsModule {}
