import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwksController } from './jwks.controller';
import { SigningKey } from './signing-key.entity';
import { SigningKeys } from './signing-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([SigningKey])],
  controllers: [JwksController],
  providers: [SigningKeys],
  exports: [SigningKeys],
})
export class KeysModule {}
