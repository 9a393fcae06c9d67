import { markFormBody } from '@media/kernel';
import { ValidationFailed } from '@media/core';
import { parsePreferences } from './preferences.service';

async function issues(body: unknown) {
  try {
    await parsePreferences(body);
  } catch (error) {
    if (error instanceof ValidationFailed) return error.issues;
    throw error;
  }
  throw new Error('accepted');
}

describe('parsePreferences (docs/api/contract.md §4.14)', () => {
  it('takes one object and defaults the channel to websocket', async () => {
    expect(await parsePreferences({ notification_type: '*', enabled: false })).toEqual([
      { notification_type: '*', channel: 'websocket', enabled: false },
    ]);
  });

  it('takes a form object whose values are text', async () => {
    const body = markFormBody({ notification_type: 'x', channel: 'email', enabled: 'true' });
    expect(await parsePreferences(body)).toEqual([
      { notification_type: 'x', channel: 'email', enabled: true },
    ]);
  });

  it('takes 1 and 100 items and refuses 0 and 101 at ["body"]', async () => {
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ notification_type: `t${i}`, enabled: true }));
    await expect(parsePreferences(items(1))).resolves.toHaveLength(1);
    await expect(parsePreferences(items(100))).resolves.toHaveLength(100);
    expect(await issues([])).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'too_short' }]);
    expect(await issues(items(101))).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'too_long' }]);
  });

  it('reports a repeated (type, channel) at the later index only, the default channel included', async () => {
    const found = await issues([
      { notification_type: 'a', enabled: true },
      { notification_type: 'a', channel: 'email', enabled: true },
      { notification_type: 'b', enabled: true },
      { notification_type: 'a', channel: 'websocket', enabled: false },
    ]);
    expect(found).toEqual([{ loc: ['body', '3'], msg: expect.any(String), type: 'value_error' }]);
  });

  it('reports every bad item at its own index', async () => {
    const found = await issues([{ notification_type: '', enabled: true }, { enabled: 1 }]);
    expect(found.map((i) => [i.loc, i.type])).toEqual([
      [['body', '0', 'notification_type'], 'string_too_short'],
      [['body', '1', 'notification_type'], 'missing'],
      [['body', '1', 'enabled'], 'bool_parsing'],
    ]);
  });

  it('refuses null and scalars as a body with model_type', async () => {
    expect((await issues(null))[0]).toMatchObject({ loc: ['body'], type: 'model_type' });
    expect((await issues([3]))[0]).toMatchObject({ loc: ['body', '0'], type: 'model_type' });
  });
});
