import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { DocumentsSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import { isUUID } from 'class-validator';
import { DocumentsService } from './documents.service';
import { DocumentIdRequest, DocumentIdsRequest } from './dto/rpc.dto';

/** documents's NATS responders (docs/api/contract.md §5); deleted documents are reported absent. */
@Controller()
export class DocumentsRpc {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @MessagePattern(DocumentsSubjects.documentsGet)
  async get(
    @RpcPayload(DocumentIdRequest) data: DocumentIdRequest,
  ): Promise<RpcReply<typeof DocumentsSubjects.documentsGet>> {
    if (!isUUID(data.id, 'all')) return null;
    const [found] = await this.documents.getMany([data.id]);
    return found ?? null;
  }

  @MessagePattern(DocumentsSubjects.documentsGetMany)
  getMany(
    @RpcPayload(DocumentIdsRequest) data: DocumentIdsRequest,
  ): Promise<RpcReply<typeof DocumentsSubjects.documentsGetMany>> {
    return this.documents.getMany(data.ids);
  }
}
