import { Module } from '@nestjs/common';
import { CollectionsController } from './collections.controller';
import { CollectionsService } from './collections.service';
import { Feature } from '@media/platform';
import { Collection } from './collection.entity';
import { CreateCommissions1764200000000 } from '../database/migrations/1764200000000-create-commissions';

@Feature({ entities: [Collection], migrations: [CreateCommissions1764200000000] })
@Module({ controllers: [CollectionsController], providers: [CollectionsService] })
export class CollectionsModule {}
