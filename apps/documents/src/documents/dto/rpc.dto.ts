import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import { DOCUMENTS_GET_MANY_MAX, type DocumentsSubjects, type RpcRequest } from '@media/contracts';

/** `documents.documents.get`, checked like an HTTP body (loc starts at `data`). */
export class DocumentIdRequest implements RpcRequest<typeof DocumentsSubjects.documentsGet> {
  @IsString()
  id!: string;
}

/** `documents.documents.get-many`. */
export class DocumentIdsRequest implements RpcRequest<typeof DocumentsSubjects.documentsGetMany> {
  @IsArray()
  @ArrayMaxSize(DOCUMENTS_GET_MANY_MAX)
  @IsString({ each: true })
  ids!: string[];
}
