import { IsUUID } from 'class-validator';

/** `/api/v1/webhooks/endpoints/{id}`. */
export class EndpointIdParams {
  @IsUUID('all')
  id!: string;
}
