import type { OpenAPIObject } from '@nestjs/swagger';
import {
  DECIMAL_PATTERN,
  declareDecimalPatterns,
  declareRequestExamples,
  sampleOf,
} from './openapi-examples';

describe('sampleOf', () => {
  const schemas = {
    Line: {
      type: 'object',
      required: ['amount', 'starts', 'platform', 'group_id'],
      properties: {
        amount: { type: 'string', example: '1250.00' },
        starts: { type: 'string', format: 'date' },
        platform: { type: 'string', enum: ['TV', 'RADIO'] },
        group_id: { type: 'string' },
        notes: { type: 'object', nullable: true },
        spots: { type: 'integer', minimum: 5, example: 7 },
        skipped: { type: 'string' },
      },
    },
  };

  it("takes a field's example first, then its format, enum or name; optional fields only with an example", () => {
    expect(sampleOf({ $ref: '#/components/schemas/Line' }, schemas)).toEqual({
      amount: '1250.00',
      starts: '2026-01-15',
      platform: 'TV',
      group_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      spots: 7,
    });
  });

  it('answers null for an untyped nullable field and keeps numbers within their bounds', () => {
    expect(sampleOf({ type: 'object', nullable: true }, {})).toBeNull();
    expect(sampleOf({ type: 'integer', minimum: 3, maximum: 9 }, {}, 0, 'month')).toBe(3);
    expect(
      sampleOf({ type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 2 }, {}),
    ).toHaveLength(2);
  });
});

describe('declareRequestExamples and declareDecimalPatterns', () => {
  const document = (): OpenAPIObject =>
    ({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            responses: {},
          },
        },
      },
      components: {
        schemas: {
          Thing: {
            type: 'object',
            required: ['price', 'name'],
            properties: { price: { type: 'string', example: '9.90' }, name: { type: 'string' } },
          },
          Kept: { type: 'object', properties: {}, example: { given: true } },
        },
      },
    }) as unknown as OpenAPIObject;

  it('gives a request body schema without one an example, and leaves other schemas alone', () => {
    const schemas = declareRequestExamples(document()).components!.schemas as Record<
      string,
      { example?: unknown }
    >;
    expect(schemas.Thing.example).toEqual({ price: '9.90', name: 'example' });
    expect(schemas.Kept.example).toEqual({ given: true });
  });

  it('documents a decimal-text field with its pattern', () => {
    const schemas = declareDecimalPatterns(document()).components!.schemas as Record<
      string,
      { properties: Record<string, { pattern?: string }> }
    >;
    expect(schemas.Thing.properties.price.pattern).toBe(DECIMAL_PATTERN);
    expect(schemas.Thing.properties.name.pattern).toBeUndefined();
    expect(new RegExp(DECIMAL_PATTERN).test('1250.5')).toBe(true);
    expect(new RegExp(DECIMAL_PATTERN).test('12.345')).toBe(false);
  });
});
