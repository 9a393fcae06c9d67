import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { validateDto } from './validation.pipe';

/** Validates a NATS request envelope's `data` against a DTO class (422 at `["data", ...]`). */
@Injectable()
export class RpcPayloadPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(private readonly dto: new () => T) {}

  transform(envelope: unknown): Promise<T> {
    const data = (envelope as { data?: unknown } | null | undefined)?.data;
    return validateDto(this.dto, data, ['data']);
  }
}

/**
 * The request envelope, as a custom parameter: Nest hands `@Payload()` to the global pipe as a
 * `body` (same enum value), which would validate the whole envelope against the DTO at `["body"]`.
 */
const RpcEnvelope = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  ctx.switchToRpc().getData(),
);

/**
 * A NATS responder's request, validated: the envelope's `data` as an instance of `dto`, or a
 * 422 error payload naming every failing field at `["data", ...]` (docs/api/contract.md §5).
 *
 * ```ts
 * @MessagePattern(AssignmentSubjects.tasksCreate)
 * create(@RpcPayload(CreateTaskDto) dto: CreateTaskDto): Promise<TaskView> {}
 * ```
 */
export const RpcPayload = <T extends object>(dto: new () => T): ParameterDecorator =>
  RpcEnvelope(undefined, new RpcPayloadPipe(dto));
