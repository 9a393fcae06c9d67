import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEnvelope, LineAssetView } from '@media/contracts';
import { DeletedDocuments, type DocumentDeletedPayload } from '@media/platform';
import { DocumentsClient } from '@media/app-clients';
import { NotFound, ValidationFailed } from '@media/core';
import type { DataSource, EntityManager } from 'typeorm';
import { ASSET_COLUMNS, toAssetView, type AssetRow } from './booking.view';
import type { CreateAssetDto, UpdateAssetDto } from './dto/asset.dto';

/** Assets of booking lines (docs/api/contract.md §4.5, §4a); every id is checked under its parents. */
@Injectable()
export class AssetsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DocumentsClient) private readonly documents: DocumentsClient,
    @Inject(DeletedDocuments) private readonly deletedDocuments: DeletedDocuments,
  ) {
    deletedDocuments.onDeleted((event, manager) => this.detachDocument(event, manager));
  }

  async create(orderId: string, lineId: string, dto: CreateAssetDto): Promise<LineAssetView> {
    const documentId = dto.document_id?.toLowerCase() ?? null;
    if (documentId) await this.documents.requireLive(documentId);
    const row = await this.dataSource.transaction(async (manager) => {
      if (documentId) await this.deletedDocuments.keep(manager, documentId);
      const [inserted] = (await manager.query(
        `INSERT INTO line_assets (line_id, name, document_id, notes)
         SELECT l.id, $3, $4, $5 FROM booking_lines l WHERE l.id = $1 AND l.order_id = $2
         RETURNING ${ASSET_COLUMNS.replace(/a\./g, '')}`,
        [lineId.toLowerCase(), orderId.toLowerCase(), dto.name, documentId, dto.notes ?? null],
      )) as AssetRow[];
      if (!inserted) throw new NotFound('Line', lineId);
      return inserted;
    });
    return toAssetView(row);
  }

  /**
   * Updates a line's asset: a partial update of an asset that must be under that line of that order (else
   * 404, whichever id is foreign). Checks run in docs/api/contract.md §1 order: the body (at least one
   * field, the document exists) before the 404.
   */
  async update(
    orderId: string,
    lineId: string,
    assetId: string,
    dto: UpdateAssetDto,
  ): Promise<LineAssetView> {
    const fields = (['name', 'document_id', 'notes'] as const).filter((f) => dto[f] !== undefined);
    if (fields.length === 0) {
      throw ValidationFailed.at(['body'], 'At least one of name, document_id, notes is required');
    }
    const documentId = dto.document_id?.toLowerCase() ?? null;
    if (documentId) await this.documents.requireLive(documentId);
    const values = fields.map((f) => (f === 'document_id' ? documentId : (dto[f] ?? null)));
    const row = await this.dataSource.transaction(async (manager) => {
      if (documentId) await this.deletedDocuments.keep(manager, documentId);
      const sets = fields.map((f, i) => `${f} = $${i + 4}`);
      const [rows] = (await manager.query(
        `UPDATE line_assets a SET ${sets.join(', ')}, updated_at = now()
           FROM booking_lines l
          WHERE a.id = $1 AND a.line_id = $2 AND l.id = a.line_id AND l.order_id = $3
          RETURNING ${ASSET_COLUMNS}`,
        [assetId.toLowerCase(), lineId.toLowerCase(), orderId.toLowerCase(), ...values],
      )) as [AssetRow[], number];
      if (!rows.length) throw new NotFound('Asset', assetId);
      return rows[0];
    });
    return toAssetView(row);
  }

  /**
   * `documents.document.deleted` (via DeletedDocuments: once per event, the document locked and
   * remembered): assets keep their row; only the reference goes.
   */
  private async detachDocument(
    event: EventEnvelope<DocumentDeletedPayload>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `UPDATE line_assets SET document_id = NULL, updated_at = now() WHERE document_id = $1`,
      [event.data.document_id],
    );
  }
}
