import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Feature } from '@media/platform';
import { CreateAuditCopy1764900000201 } from '../database/migrations/1764900000201-create-audit-copy';
import { AuditCopyResourceIdIndex1765200000100 } from '../database/migrations/1765200000100-audit-copy-resource-id-index';
import { KeysModule } from '../keys/keys.module';
import { AuditCopyEntry } from './audit-copy-entry.entity';
import { AuditCopyConsumer } from './audit-copy.consumer';
import { AuditCopyController } from './audit-copy.controller';
import { AuditCopyService } from './audit-copy.service';
import { AuditKeysController } from './audit-keys.controller';
import { AuditSigningKey } from './audit-signing-key.entity';
import { AuditRpc } from './audit.rpc';
import { CheckpointSignerService } from './checkpoint-signer.service';

/**
 * acl's part of the audit trail (CONTRACT §8): signing the apps' checkpoints, publishing every
 * key that signed one, and the merged copy of every app's entries.
 */
@Feature({
  entities: [AuditSigningKey, AuditCopyEntry],
  migrations: [CreateAuditCopy1764900000201, AuditCopyResourceIdIndex1765200000100],
})
@Module({
  imports: [TypeOrmModule.forFeature([AuditSigningKey, AuditCopyEntry]), KeysModule],
  controllers: [AuditKeysController, AuditCopyController, AuditRpc],
  providers: [CheckpointSignerService, AuditCopyService, AuditCopyConsumer],
})
export class AuditModule {}
