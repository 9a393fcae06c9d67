import { PageQuery } from '@media/platform';

/** A room's messages, newest first. */
export class ListMessagesQuery extends PageQuery {}
