import { PageQuery } from '@media/platform';

/** The caller's rooms, newest first. */
export class ListRoomsQuery extends PageQuery {}
