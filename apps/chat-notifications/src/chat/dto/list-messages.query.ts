import { PageQuery } from '@media/http';

/** A room's messages, newest first. */
export class ListMessagesQuery extends PageQuery {}
