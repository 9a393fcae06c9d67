import type { Response } from 'express';
import type { KeptAnswer } from './idempotency-keys';

/**
 * A kept answer to send again (docs/api/contract.md §7.1). Thrown by the interceptor so that the
 * route's handler does not run and the one exception filter writes it, byte for byte, instead of
 * Nest serialising a new body with the route's own status.
 */
export class KeptAnswerReplay extends Error {
  constructor(readonly answer: KeptAnswer) {
    super('Idempotent replay');
  }

  send(res: Response): void {
    const { status, headers, body } = this.answer;
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    res.setHeader('Content-Length', body.length);
    res.status(status).end(body);
  }
}
