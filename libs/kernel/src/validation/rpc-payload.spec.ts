import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsString, IsUUID, MinLength } from 'class-validator';
import { ValidationFailed } from '@media/core';
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

class Members {
  @IsString()
  name!: string;

  @IsArray()
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  member_ids!: string[];
}

describe('RpcPayloadPipe answers are bounded (docs/api/contract.md §2)', () => {
  const pipe = new RpcPayloadPipe(Members);
  const fail = (data: unknown) =>
    pipe.transform({ data }).then(
      () => {
        throw new Error('accepted');
      },
      (error: unknown) => error as ValidationFailed,
    );

  it('reports a scalar field given a 400,000-element array once, at the field', async () => {
    const error = await fail({ name: Array(400_000).fill(0), member_ids: [] });
    expect(error.issues).toEqual([{ loc: ['data', 'name'], msg: expect.any(String), type: 'string_type' }]);
  });

  it('reports a list over its maximum as one too_long item, whatever its elements', async () => {
    const error = await fail({ name: 'a', member_ids: Array(400_000).fill({ deep: [1, 2, 3] }) });
    expect(error.issues).toEqual([
      { loc: ['data', 'member_ids'], msg: expect.any(String), type: 'too_long' },
    ]);
  });

  it('lists at most 50 bad elements at their own loc, then one too_many_errors item with the count', async () => {
    const error = await fail({ name: 'a', member_ids: Array(120).fill([0]) });
    expect(error.issues).toHaveLength(51);
    expect(error.issues[0]).toMatchObject({ loc: ['data', 'member_ids', '0'], type: 'uuid_parsing' });
    expect(error.issues[50]).toEqual({
      loc: ['data'],
      msg: '70 more errors were left out',
      type: 'too_many_errors',
    });
  });
});
