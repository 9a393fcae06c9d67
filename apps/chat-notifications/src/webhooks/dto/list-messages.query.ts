import { PageQuery } from '@media/http';

/** An endpoint's messages, newest first. */
export class ListMessagesQuery extends PageQuery {}
