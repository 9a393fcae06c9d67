import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A document attached to a slot. */
@Entity({ name: 'slot_assets' })
export class SlotAsset {
  @PrimaryColumn({ name: 'slot_id', type: 'uuid' })
  slotId!: string;

  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ name: 'attached_by', type: 'uuid' })
  attachedBy!: string;

  @Column({ name: 'attached_at', type: 'timestamptz', precision: 3 })
  attachedAt!: Date;
}
