import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ChatErrorCodes } from '@media/contracts';
import { changedRows } from '@media/kernel';
import { Conflict, Forbidden, NotFound, ValidationFailed, type AuthUser } from '@media/core';
import { RpcClient } from '@media/messaging';
import type { DataSource } from 'typeorm';
import type { AddMembersDto } from './dto/add-members.dto';
import { findMembership, inactiveUserIssues, insertMembers } from './room-membership';
import type { RoomView } from './room.view';
import { RoomsService } from './rooms.service';

/** Who is in a room: adding and removing members (docs/api/contract.md §4.1). */
@Injectable()
export class RoomMembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(RoomsService) private readonly rooms: RoomsService,
  ) {}

  async add(roomId: string, dto: AddMembersDto, user: AuthUser): Promise<RoomView> {
    const issues = await inactiveUserIssues(this.rpc, dto.member_ids, user.id, ['body', 'member_ids']);
    if (issues.length > 0) throw new ValidationFailed(issues);
    const { room, role } = await findMembership(this.dataSource, roomId, user.id);
    if (role !== 'ADMIN') throw new Forbidden("Only the room's admins can add members.");
    if (room.room_type === 'DIRECT')
      throw new Conflict('A direct room has exactly its two users.', ChatErrorCodes.roomIsDirect);
    if (!room.is_active) throw new Conflict('The room is inactive.', ChatErrorCodes.roomInactive);
    const ids = [...new Set(dto.member_ids.map((id) => id.toLowerCase()))];
    await this.dataSource.transaction(async (manager) => {
      await insertMembers(manager, room.id, ids, 'MEMBER');
      await manager.query(`UPDATE chat_rooms SET updated_at = clock_timestamp() WHERE id = $1`, [room.id]);
    });
    return this.rooms.view(room.id, user.id);
  }

  /** ADMINs remove anyone; any member may remove itself (leave). */
  async remove(roomId: string, memberId: string, user: AuthUser): Promise<RoomView> {
    const { room, role } = await findMembership(this.dataSource, roomId, user.id);
    const target = memberId.toLowerCase();
    if (target !== user.id && role !== 'ADMIN')
      throw new Forbidden("Only the room's admins can remove members.");
    if (room.room_type === 'DIRECT')
      throw new Conflict('A direct room has exactly its two users.', ChatErrorCodes.roomIsDirect);
    const removed = await this.dataSource.transaction(async (manager) => {
      const result: unknown = await manager.query(
        `DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2 RETURNING id`,
        [room.id, target],
      );
      if (changedRows(result).length === 0) return false;
      await manager.query(`UPDATE chat_rooms SET updated_at = clock_timestamp() WHERE id = $1`, [room.id]);
      return true;
    });
    if (!removed) throw new NotFound('Member', memberId);
    return this.rooms.view(room.id, user.id);
  }
}
