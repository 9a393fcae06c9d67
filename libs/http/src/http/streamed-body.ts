import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';

export const STREAMED_BODY = 'http:streamed-body';

/**
 * Body types that no route reads unless it says so: the body is left unread by the platform and
 * streamed by the route itself (a tus chunk, `application/offset+octet-stream`, of any size).
 */
export const STREAMED_BODY_TYPES = ['application/offset+octet-stream'] as const;
export type StreamedBodyType = (typeof STREAMED_BODY_TYPES)[number];

export function isStreamedBodyType(type: string): type is StreamedBodyType {
  return (STREAMED_BODY_TYPES as readonly string[]).includes(type);
}

/**
 * The route reads a body of `type` itself, from the request stream, with no size limit of the
 * platform's (the route bounds it); elsewhere such a body is 415.
 */
export function StreamedBody(type: StreamedBodyType) {
  return applyDecorators(SetMetadata(STREAMED_BODY, type), ApiConsumes(type));
}
