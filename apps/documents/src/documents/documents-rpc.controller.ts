import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DocumentsSubjects, type DocumentsRpc, type RpcEnvelope } from '@media/contracts';
import { validateDto } from '@media/platform';
import { isUUID } from 'class-validator';
import { DocumentsService } from './documents.service';
import { DocumentIdRequest, DocumentIdsRequest } from './dto/rpc.dto';

type Req<S extends keyof DocumentsRpc> = RpcEnvelope<DocumentsRpc[S]['req']>;
type Res<S extends keyof DocumentsRpc> = Promise<DocumentsRpc[S]['res']>;

/** documents's NATS responders (CONTRACT §5); deleted documents are reported absent. */
@Controller()
export class DocumentsRpcController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @MessagePattern(DocumentsSubjects.documentsGet)
  async get(
    @Payload() envelope: Req<typeof DocumentsSubjects.documentsGet>,
  ): Res<typeof DocumentsSubjects.documentsGet> {
    const data = await validateDto(DocumentIdRequest, envelope?.data, ['data']);
    if (!isUUID(data.id, 'all')) return null;
    const [found] = await this.documents.getMany([data.id]);
    return found ?? null;
  }

  @MessagePattern(DocumentsSubjects.documentsGetMany)
  async getMany(
    @Payload() envelope: Req<typeof DocumentsSubjects.documentsGetMany>,
  ): Res<typeof DocumentsSubjects.documentsGetMany> {
    const data = await validateDto(DocumentIdsRequest, envelope?.data, ['data']);
    return this.documents.getMany(data.ids);
  }
}
