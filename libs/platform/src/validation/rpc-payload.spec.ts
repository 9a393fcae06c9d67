import 'reflect-metadata';
import { IsString, MinLength } from 'class-validator';
import { ValidationFailed } from '../errors/domain-errors';
import { RpcPayloadPipe } from './rpc-payload';

class Request {
  @IsString()
  @MinLength(1)
  id!: string;
}

describe('RpcPayloadPipe', () => {
  const pipe = new RpcPayloadPipe(Request);

  it('answers the envelope data as an instance of the DTO', async () => {
    const data = await pipe.transform({ data: { id: 'a' }, meta: {} });
    expect(data).toBeInstanceOf(Request);
    expect(data).toEqual({ id: 'a' });
  });

  it('rejects a failing field with a 422 at ["data", field]', async () => {
    const error = await pipe.transform({ data: { id: '' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).toPayload()).toMatchObject({
      status: 422,
      code: 'validation_error',
      detail: [expect.objectContaining({ loc: ['data', 'id'] })],
    });
  });

  it('rejects a missing envelope or a data that is not an object at ["data"]', async () => {
    for (const envelope of [undefined, null, {}, { data: [] }, { data: 'x' }]) {
      const error = (await pipe.transform(envelope).catch((e: unknown) => e)) as ValidationFailed;
      expect(error.issues).toEqual([
        { loc: ['data'], msg: 'Input should be a valid object', type: 'model_type' },
      ]);
    }
  });

  it('rejects a field the DTO does not declare', async () => {
    const error = (await pipe
      .transform({ data: { id: 'a', extra: 1 } })
      .catch((e: unknown) => e)) as ValidationFailed;
    expect(error.issues[0].loc).toEqual(['data', 'extra']);
  });
});
