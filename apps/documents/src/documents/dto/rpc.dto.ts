import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import { DOCUMENTS_GET_MANY_MAX, DocumentsSubjects, type DocumentsRpc } from '@media/contracts';

type GetReq = DocumentsRpc[typeof DocumentsSubjects.documentsGet]['req'];
type GetManyReq = DocumentsRpc[typeof DocumentsSubjects.documentsGetMany]['req'];

/** `documents.documents.get`, checked like an HTTP body (loc starts at `data`). */
export class DocumentIdRequest implements GetReq {
  @IsString()
  id!: string;
}

/** `documents.documents.get-many`. */
export class DocumentIdsRequest implements GetManyReq {
  @IsArray()
  @ArrayMaxSize(DOCUMENTS_GET_MANY_MAX)
  @IsString({ each: true })
  ids!: string[];
}
