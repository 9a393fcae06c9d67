import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AclSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import { TokenVersionsRequest } from './dto/rpc.dto';
import { TokenVersionsService } from './token-versions.service';

/** sessions' NATS responder: the token versions every app refuses older tokens by. */
@Controller()
export class SessionsRpc {
  constructor(@Inject(TokenVersionsService) private readonly versions: TokenVersionsService) {}

  @MessagePattern(AclSubjects.usersTokenVersions)
  tokenVersions(
    @RpcPayload(TokenVersionsRequest) data: TokenVersionsRequest,
  ): Promise<RpcReply<typeof AclSubjects.usersTokenVersions>> {
    return this.versions.since(data.since === undefined ? undefined : new Date(data.since));
  }
}
