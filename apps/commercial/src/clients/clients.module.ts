import { Module } from '@nestjs/common';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { Feature } from '@media/platform';
import { Client } from './client.entity';
import { CreateSales1764100000000 } from '../database/migrations/1764100000000-create-sales';
import { AuditTrailCommercial1764900000110 } from '../database/migrations/1764900000110-audit-trail';

@Feature({ entities: [Client], migrations: [CreateSales1764100000000, AuditTrailCommercial1764900000110] })
@Module({
  controllers: [ClientsController],
  providers: [ClientsService],
})
export class ClientsModule {}
