import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AclSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import { CheckpointSignerService } from './checkpoint-signer.service';
import { SignCheckpointRequest } from './dto/sign-checkpoint.dto';

/** audit's NATS responder: any app asks acl to sign its checkpoint (CONTRACT §8.2); 422 at `["data", ...]`. */
@Controller()
export class AuditRpc {
  constructor(@Inject(CheckpointSignerService) private readonly signer: CheckpointSignerService) {}

  @MessagePattern(AclSubjects.auditSignCheckpoint)
  signCheckpoint(
    @RpcPayload(SignCheckpointRequest) data: SignCheckpointRequest,
  ): Promise<RpcReply<typeof AclSubjects.auditSignCheckpoint>> {
    return this.signer.sign(data);
  }
}
