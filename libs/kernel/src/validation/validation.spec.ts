import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ValidationFailed } from '@media/core';
import { coerceTextValues, ItemType } from './coerce';
import { isDateOnly, isDateTime } from './decorators';
import { markFormBody } from './form-body';
import { validateDto } from './validation.pipe';

class Line {
  @IsString()
  @MinLength(1)
  title!: string;
}

class Payload {
  @IsString()
  @MinLength(1)
  name!: string;

  @IsOptional()
  @IsInt()
  @Max(10)
  count?: number;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2)
  @IsUUID('all', { each: true })
  ids?: string[];

  @IsOptional()
  @IsArray()
  @ItemType(Number)
  @IsInt({ each: true })
  sizes?: number[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines?: Line[];

  @IsOptional()
  metadata?: object;

  @IsOptional()
  @ValidateNested()
  @Type(() => Line)
  main?: Line | null;
}

async function issuesOf(value: unknown, text = false) {
  try {
    await validateDto(Payload, value, ['body'], text);
  } catch (error) {
    return (error as ValidationFailed).issues;
  }
  return [];
}

describe('validateDto', () => {
  it('reports nested array items at their index, as strings', async () => {
    const issues = await issuesOf({ name: 'x', lines: [{ title: 'ok' }, { title: '' }, {}] });
    expect(issues).toEqual([
      { loc: ['body', 'lines', '1', 'title'], msg: expect.any(String), type: 'string_too_short' },
      { loc: ['body', 'lines', '2', 'title'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('reports one item per field, the type check before the range check', async () => {
    const issues = await issuesOf({ name: 5, count: 'many' });
    expect(issues).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'count'], msg: expect.any(String), type: 'int_parsing' },
    ]);
  });

  it('reports a bad item of an `each` constraint at its index', async () => {
    const ok = '4b8f2c1e-7a3d-4e2b-9c1a-0d5e6f7a8b9c';
    expect(await issuesOf({ name: 'x', ids: [ok, 'nope'] })).toEqual([
      { loc: ['body', 'ids', '1'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
    expect(await issuesOf({ name: 'x', sizes: [1, 2.5, 'x'] })).toEqual([
      { loc: ['body', 'sizes', '1'], msg: expect.any(String), type: 'int_parsing' },
      { loc: ['body', 'sizes', '2'], msg: expect.any(String), type: 'int_parsing' },
    ]);
  });

  it('refuses unknown fields one by one', async () => {
    const issues = await issuesOf({ name: 'x', a: 1, b: 2 });
    expect(issues.map((i) => [i.loc, i.type])).toEqual([
      [['body', 'a'], 'extra_forbidden'],
      [['body', 'b'], 'extra_forbidden'],
    ]);
  });

  it('does not coerce JSON values: "5" is not an integer', async () => {
    expect(await issuesOf({ name: 'x', count: '5' })).toEqual([
      expect.objectContaining({ loc: ['body', 'count'], type: 'int_parsing' }),
    ]);
  });

  it('coerces text values of forms and queries to the declared types', async () => {
    const result = await validateDto(
      Payload,
      markFormBody({ name: 'x', count: '5', enabled: 'true', sizes: ['1', '2'], metadata: '{"a":1}' }),
      ['body'],
      true,
    );
    expect(result).toMatchObject({ count: 5, enabled: true, sizes: [1, 2], metadata: { a: 1 } });
  });
});

describe('validateDto: bounded work for any shape (docs/api/contract.md §2 "bounded cost")', () => {
  const wide = (n: number, prefix = 'k') =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1]));

  it('lists the first 50 of 80,000 unknown fields and counts every other failing field', async () => {
    const issues = await issuesOf(wide(80_000));
    expect(issues).toHaveLength(51);
    expect(issues.slice(0, 50).map((i) => [i.loc, i.type])).toEqual(
      Array.from({ length: 50 }, (_, i) => [['body', `k${i}`], 'extra_forbidden']),
    );
    // 80,000 unknown fields and the missing `name`, less the 50 shown.
    expect(issues[50]).toEqual({
      loc: ['body'],
      msg: '79951 more errors were left out',
      type: 'too_many_errors',
    });
  });

  it('bounds unknown fields inside the elements of a nested list, counting them all', async () => {
    const issues = await issuesOf({ name: 'x', lines: [{ title: 'a', ...wide(30, 'a') }, wide(40, 'b')] });
    expect(issues).toHaveLength(51);
    expect(issues[0].loc).toEqual(['body', 'lines', '0', 'a0']);
    // 70 unknown fields and the missing title of the second line, less the 50 shown.
    expect(issues[50]).toEqual({
      loc: ['body'],
      msg: '21 more errors were left out',
      type: 'too_many_errors',
    });
  });

  it('answers an array where a nested object is expected with one model_type item at its loc', async () => {
    expect(await issuesOf({ name: 'x', main: [] })).toEqual([
      { loc: ['body', 'main'], msg: 'Input should be a valid object', type: 'model_type' },
    ]);
    expect(await issuesOf({ name: 'x', main: [{ title: '' }, [1, 2]] })).toEqual([
      { loc: ['body', 'main'], msg: 'Input should be a valid object', type: 'model_type' },
    ]);
  });

  it('answers an array element of a list of objects with one model_type item at its index, the other elements still checked', async () => {
    expect(await issuesOf({ name: 'x', lines: [[Array(1000).fill('a')], { title: '' }] })).toEqual([
      { loc: ['body', 'lines', '0'], msg: 'Input should be a valid object', type: 'model_type' },
      { loc: ['body', 'lines', '1', 'title'], msg: expect.any(String), type: 'string_too_short' },
    ]);
  });

  it('answers an object where a list of objects is expected with one list_type item', async () => {
    expect(await issuesOf({ name: 'x', lines: wide(1000) })).toEqual([
      { loc: ['body', 'lines'], msg: 'Input should be a valid list', type: 'list_type' },
    ]);
  });

  it('keeps a free-form object as sent, away from class-transformer', async () => {
    const metadata = { ...wide(5_000), nested: { list: [1, { a: 'b' }] } };
    const result = await validateDto(Payload, { name: 'x', metadata, lines: [{ title: 't' }] }, ['body']);
    expect(result.metadata).toEqual(metadata);
    expect(result.lines?.[0]).toBeInstanceOf(Line);
  });

  it('still refuses NUL and lone surrogates deep inside a free-form object', async () => {
    expect(await issuesOf({ name: 'x', metadata: { a: [{ b: 'x\u0000' }], 'c\ud800': 1 } })).toEqual([
      { loc: ['body', 'metadata', 'a', '0', 'b'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'metadata', 'c\ufffd'], msg: expect.any(String), type: 'value_error' },
    ]);
  });
});

describe('coerceTextValues', () => {
  it('leaves text that does not convert for validation to refuse', () => {
    expect(coerceTextValues(Payload, { count: '', enabled: 'yes', metadata: '{' })).toEqual({
      count: '',
      enabled: 'yes',
      metadata: '{',
    });
  });

  it('wraps a lone value of an array field', () => {
    expect(coerceTextValues(Payload, { ids: 'a' })).toEqual({ ids: ['a'] });
  });
});

describe('dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-1-01', false],
    ['2024-04-31', false],
  ])('isDateOnly(%s) is %s', (value, ok) => expect(isDateOnly(value)).toBe(ok));

  it.each([
    ['2026-11-25T10:00:00Z', true],
    ['2026-11-25T10:00:00.123+02:00', true],
    ['2026-11-25T10:00:00', false],
    ['2026-11-25', false],
    ['2026-02-30T10:00:00Z', false],
  ])('isDateTime(%s) is %s', (value, ok) => expect(isDateTime(value)).toBe(ok));
});
