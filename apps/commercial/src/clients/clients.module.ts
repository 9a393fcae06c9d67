import { Module } from '@nestjs/common';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { Feature } from '@media/platform';
import { Client } from './client.entity';
import { CreateSales1764100000000 } from '../database/migrations/1764100000000-create-sales';

@Feature({ entities: [Client], migrations: [CreateSales1764100000000] })
@Module({
  controllers: [ClientsController],
  providers: [ClientsService],
})
export class ClientsModule {}
