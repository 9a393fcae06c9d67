import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('counts and yields what was added and not deleted, in slot order', () => {
    const inFlight = new InFlight<{ name: string }>();
    const a = { name: 'a' };
    const b = { name: 'b' };
    const c = { name: 'c' };
    const slotA = inFlight.add(a);
    const slotB = inFlight.add(b);
    inFlight.add(c);
    inFlight.delete(slotB, b);
    expect(inFlight.size).toBe(2);
    expect([...inFlight]).toEqual([a, c]);
    inFlight.delete(slotA, a);
    expect([...inFlight]).toEqual([c]);
  });

  it('reuses a freed slot before growing', () => {
    const inFlight = new InFlight<object>();
    const first = {};
    const slot = inFlight.add(first);
    inFlight.add({});
    inFlight.delete(slot, first);
    expect(inFlight.add({ again: true })).toBe(slot);
    expect(inFlight.size).toBe(2);
    expect((inFlight as unknown as { slots: unknown[] }).slots).toHaveLength(2);
  });

  it('ignores a second delete, even once the slot holds another item', () => {
    const inFlight = new InFlight<object>();
    const gone = {};
    const slot = inFlight.add(gone);
    inFlight.delete(slot, gone);
    inFlight.delete(slot, gone);
    expect(inFlight.size).toBe(0);
    const next = {};
    expect(inFlight.add(next)).toBe(slot);
    inFlight.delete(slot, gone);
    expect(inFlight.size).toBe(1);
    expect([...inFlight]).toEqual([next]);
  });
});
