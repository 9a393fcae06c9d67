import { IsUUID } from 'class-validator';

export class UserIdParams {
  @IsUUID('all')
  id!: string;
}
