import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AssignmentSubjects, type AssignmentRpc, type RpcEnvelope, type TaskView } from '@media/contracts';
import { validateDto } from '@media/platform';
import { CreateTaskDto } from './dto/create-task.dto';
import { TasksService } from './tasks.service';

type Req<S extends keyof AssignmentRpc> = RpcEnvelope<AssignmentRpc[S]['req']>;

/** Task creation by other apps (CONTRACT §5); a malformed payload is a 422 at `["data", ...]`. */
@Controller()
export class TasksRpcController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @MessagePattern(AssignmentSubjects.tasksCreate)
  async create(@Payload() envelope: Req<typeof AssignmentSubjects.tasksCreate>): Promise<TaskView> {
    const dto = await validateDto(CreateTaskDto, envelope?.data, ['data']);
    return this.tasks.create(dto);
  }
}
