import { parseSlotsCsv } from './csv-slots';

const RANGE = { from: '2026-03-01', to: '2026-03-31' };
const csv = (...lines: string[]) => Buffer.from(lines.join('\n'));

describe('parseSlotsCsv', () => {
  it('reads quoted fields with commas, quotes and newlines, a BOM and CRLF line ends', async () => {
    const file = Buffer.from(
      '\uFEFFair_date,start_time,duration_seconds,title\r\n' +
        '2026-03-01,06:00,1800,"News, ""live""\r\nfrom Paris"\r\n' +
        '2026-03-02,07:30,60,Weather\r\n',
    );
    const { slots, issues } = await parseSlotsCsv(file, RANGE);
    expect(issues).toEqual([]);
    expect(slots.map((s) => ({ ...s }))).toEqual([
      {
        air_date: '2026-03-01',
        start_time: '06:00',
        duration_seconds: 1800,
        title: 'News, "live"\nfrom Paris',
      },
      { air_date: '2026-03-02', start_time: '07:30', duration_seconds: 60, title: 'Weather' },
    ]);
  });

  it('accepts the columns in any order', async () => {
    const { slots, issues } = await parseSlotsCsv(
      csv('title,duration_seconds,start_time,air_date', 'A,30,10:00,2026-03-05'),
      RANGE,
    );
    expect(issues).toEqual([]);
    expect(slots).toHaveLength(1);
  });

  it('reports every bad line at its line number in the file (header = 1), multi-line records included', async () => {
    const { issues } = await parseSlotsCsv(
      csv(
        'air_date,start_time,duration_seconds,title',
        '2026-03-01,06:00,60,"two',
        'lines"',
        '2026-02-28,06:00,60,Before the range',
        '2026-03-03,25:00,0,',
        '',
        '2026-03-04,06:00,60',
        '2026-03-05,06:00,60,x,extra',
        '2026-13-01,06:00,abc,ok',
      ),
      RANGE,
    );
    expect(issues.map((i) => [i.loc, i.type])).toEqual([
      [['body', 'file', '4', 'air_date'], 'value_error'],
      [['body', 'file', '5', 'start_time'], 'time_parsing'],
      [['body', 'file', '5', 'duration_seconds'], 'greater_than_equal'],
      [['body', 'file', '5', 'title'], 'string_too_short'],
      [['body', 'file', '7', 'title'], 'missing'],
      [['body', 'file', '8'], 'value_error'],
      [['body', 'file', '9', 'air_date'], 'date_parsing'],
      [['body', 'file', '9', 'duration_seconds'], 'int_parsing'],
    ]);
  });

  it('reports a malformed quote at its line and goes on with the next lines', async () => {
    const { slots, issues } = await parseSlotsCsv(
      csv('air_date,start_time,duration_seconds,title', '2026-03-01,0"6:00,60,x', '2026-03-02,06:00,60,y'),
      RANGE,
    );
    expect(issues).toEqual([{ loc: ['body', 'file', '2'], msg: expect.any(String), type: 'value_error' }]);
    expect(slots).toHaveLength(1);
  });

  it('refuses a header with a missing or unknown column, at line 1', async () => {
    const { issues } = await parseSlotsCsv(
      csv('air_date,start_time,title,length', '2026-03-01,06:00,x,60'),
      RANGE,
    );
    expect(issues.map((i) => [i.loc, i.type])).toEqual([
      [['body', 'file', '1', 'length'], 'extra_forbidden'],
      [['body', 'file', '1', 'duration_seconds'], 'missing'],
    ]);
  });

  it('refuses an empty file and one that is not UTF-8', async () => {
    expect((await parseSlotsCsv(Buffer.from(''), RANGE)).issues).toEqual([
      { loc: ['body', 'file'], msg: expect.any(String), type: 'missing' },
    ]);
    expect((await parseSlotsCsv(Buffer.from([0x61, 0xff, 0x0a]), RANGE)).issues).toEqual([
      { loc: ['body', 'file'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('takes a header alone as a schedule without slots', async () => {
    expect(await parseSlotsCsv(csv('air_date,start_time,duration_seconds,title'), RANGE)).toEqual({
      slots: [],
      issues: [],
    });
  });

  // How fast it reads is bench/content-lineup.mjs's to measure (its CSV import): a timing here fails on a busy machine.
  it('reads 10,000 rows', async () => {
    const lines = ['air_date,start_time,duration_seconds,title'];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        `2026-03-${String((i % 31) + 1).padStart(2, '0')},${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},30,Slot ${i}`,
      );
    const { slots, issues } = await parseSlotsCsv(csv(...lines), RANGE);
    expect(issues).toEqual([]);
    expect(slots).toHaveLength(10_000);
    expect(slots[9_999]).toMatchObject({ title: 'Slot 9999' });
  });
});
