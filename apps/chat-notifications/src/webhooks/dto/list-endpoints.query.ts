import { PageQuery } from '@media/platform';

/** Endpoints, newest first. */
export class ListEndpointsQuery extends PageQuery {}
