import { PageQuery } from '@media/http';

/** Endpoints, newest first. */
export class ListEndpointsQuery extends PageQuery {}
