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
    inFlight.delete(slotB);
    expect(inFlight.size).toBe(2);
    expect([...inFlight]).toEqual([a, c]);
    inFlight.delete(slotA);
    expect([...inFlight]).toEqual([c]);
  });

  it('reuses a freed slot before growing, and holds nothing in it once deleted', () => {
    const inFlight = new InFlight<object>();
    const first = inFlight.add({});
    inFlight.add({});
    inFlight.delete(first);
    const again = inFlight.add({ again: true });
    expect(again).toBe(first);
    expect(inFlight.size).toBe(2);
    expect((inFlight as unknown as { slots: unknown[] }).slots).toHaveLength(2);
  });

  it('ignores a slot deleted twice, so the count cannot go wrong', () => {
    const inFlight = new InFlight<object>();
    const slot = inFlight.add({});
    inFlight.add({});
    inFlight.delete(slot);
    inFlight.delete(slot);
    expect(inFlight.size).toBe(1);
    expect(inFlight.add({})).toBe(slot);
    expect(inFlight.size).toBe(2);
  });
});
