import { ApiProperty } from '@nestjs/swagger';
import type { RoleView } from '../role.view';

/** A role an admin can assign, with the permissions it grants (`*`: all). */
export class RoleResponse implements RoleView {
  @ApiProperty({ example: 'EDITOR' }) code!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) permissions!: string[];
}
