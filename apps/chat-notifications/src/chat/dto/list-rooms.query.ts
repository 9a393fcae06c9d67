import { PageQuery } from '@media/http';

/** The caller's rooms, newest first. */
export class ListRoomsQuery extends PageQuery {}
