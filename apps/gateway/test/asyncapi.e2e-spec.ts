/** The gateway serves the AsyncAPI document of the NATS side, generated from libs/contracts. */
import { call, stack } from '@media/testing';
import { ASYNCAPI_DOCUMENT } from '../src/docs/generated/asyncapi';

describe('GET /asyncapi.json', () => {
  it('answers the generated AsyncAPI 3.0 document without a token', async () => {
    const res = await call(stack().gatewayUrl, '/asyncapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(ASYNCAPI_DOCUMENT);
    expect((res.body as { asyncapi: string }).asyncapi).toBe('3.0.0');
  });
});
