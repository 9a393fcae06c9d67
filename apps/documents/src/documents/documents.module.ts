import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Document } from './document.entity';
import { DocumentsRpcController } from './documents-rpc.controller';
import { DocumentsController } from './documents.controller';
import { DocumentsService } from './documents.service';
import { SweeperService } from './sweeper.service';

@Module({
  imports: [TypeOrmModule.forFeature([Document])],
  controllers: [DocumentsController, DocumentsRpcController],
  providers: [DocumentsService, SweeperService],
  exports: [DocumentsService, SweeperService],
})
export class DocumentsModule {}
