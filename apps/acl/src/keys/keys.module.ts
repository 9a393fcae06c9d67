import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwksController } from './jwks.controller';
import { KeysController } from './keys.controller';
import { SigningKey } from './signing-key.entity';
import { SigningKeysService } from './signing-keys.service';
import { Feature } from '@media/platform';
import { CreateCredentials1764000000002 } from '../database/migrations/1764000000002-create-credentials';

@Feature({ entities: [SigningKey], migrations: [CreateCredentials1764000000002] })
@Module({
  imports: [TypeOrmModule.forFeature([SigningKey])],
  controllers: [JwksController, KeysController],
  providers: [SigningKeysService],
  exports: [SigningKeysService],
})
export class KeysModule {}
