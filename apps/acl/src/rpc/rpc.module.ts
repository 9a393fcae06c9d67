import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AclRpcController } from './acl-rpc.controller';
import { ProfilesService } from './profiles.service';

@Module({
  imports: [UsersModule],
  controllers: [AclRpcController],
  providers: [ProfilesService],
})
export class RpcModule {}
