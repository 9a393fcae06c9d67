import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AssignmentSubjects, type RpcReply } from '@media/contracts';
import { RpcPayload } from '@media/kernel';
import { CreateTaskDto } from './dto/create-task.dto';
import { TasksService } from './tasks.service';

/** Task creation by other apps (docs/api/contract.md §5); a malformed payload is a 422 at `["data", ...]`. */
@Controller()
export class TasksRpc {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @MessagePattern(AssignmentSubjects.tasksCreate)
  create(
    @RpcPayload(CreateTaskDto) dto: CreateTaskDto,
  ): Promise<RpcReply<typeof AssignmentSubjects.tasksCreate>> {
    return this.tasks.create(dto);
  }
}
