import { PageQuery } from '@media/platform';

/** An endpoint's messages, newest first. */
export class ListMessagesQuery extends PageQuery {}
