import { randomUUID } from 'node:crypto';
import { IsInt, IsUUID } from 'class-validator';
import type { EventEnvelope } from '@media/contracts';
import { eventPayloadProblem } from './on-event';

class Payload {
  @IsUUID('all')
  document_id!: string;

  @IsInt()
  count!: number;
}

const envelope = (data: unknown): EventEnvelope =>
  ({
    id: randomUUID(),
    subject: 's',
    occurred_at: new Date().toISOString(),
    data,
    meta: {},
  }) as EventEnvelope;

describe('eventPayloadProblem', () => {
  it('accepts valid data, keeps undeclared fields, and hands the handler an instance', async () => {
    const event = envelope({ document_id: randomUUID(), count: 2, added_later: 'x' });
    expect(await eventPayloadProblem(Payload, event)).toBeUndefined();
    expect(event.data).toBeInstanceOf(Payload);
    expect(event.data).toMatchObject({ count: 2, added_later: 'x' });
  });

  it('names every failing field at data.<field>', async () => {
    const problem = await eventPayloadProblem(Payload, envelope({ document_id: 'nope', count: '2' }));
    expect(problem).toMatch(/^malformed event: /);
    expect(problem).toContain('data.document_id');
    expect(problem).toContain('data.count');
  });

  it('refuses data that is not an object', async () => {
    for (const data of [null, 'x', [1], undefined]) {
      expect(await eventPayloadProblem(Payload, envelope(data))).toBe('data: the event has no object data');
    }
  });
});
