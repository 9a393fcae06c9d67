import { ApiErrors } from '../http/api-docs';
import { IDEMPOTENT, Idempotent } from './idempotent.decorator';

class Routes {
  @Idempotent()
  plain(): void {}

  @Idempotent()
  @ApiErrors([409, 'The name is taken'])
  withConflict(): void {}
}

const responses = (method: () => void) =>
  Reflect.getMetadata('swagger/apiResponse', method) as Record<string, { description: string }>;

describe('@Idempotent()', () => {
  it('marks the route and documents the optional Idempotency-Key header', () => {
    expect(Reflect.getMetadata(IDEMPOTENT, Routes.prototype.plain)).toBe(true);
    const parameters = Reflect.getMetadata('swagger/apiParameters', Routes.prototype.plain) as unknown[];
    expect(parameters).toEqual([
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: false }),
    ]);
  });

  it("documents the in-flight 409, keeping a route's own 409 description when it has one", () => {
    expect(responses(Routes.prototype.plain)['409'].description).toMatch(/still being processed/);
    expect(responses(Routes.prototype.withConflict)['409'].description).toBe('The name is taken');
  });
});
