import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwksController, KeysController } from './jwks.controller';
import { SigningKey } from './signing-key.entity';
import { SigningKeys } from './signing-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([SigningKey])],
  controllers: [JwksController, KeysController],
  providers: [SigningKeys],
  exports: [SigningKeys],
})
export class KeysModule {}
