import type { OpenAPIObject } from '@nestjs/swagger';

type Operation = { parameters?: { name: string; in: string }[] };

/**
 * Declares every `{name}` of a path as a path parameter where the document does not already:
 * routes validate their path with DTO classes Swagger cannot see into, and a client generator
 * or Swagger UI needs each parameter declared (ids are uuids: every path id in this system is).
 */
export function declarePathParameters(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    if (names.length === 0) continue;
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method)) continue;
      const declared = new Set(
        (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      );
      const missing = names.filter((name) => !declared.has(name));
      operation.parameters = [
        ...(operation.parameters ?? []),
        ...missing.map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: /(^|_)id$/.test(name) ? { type: 'string', format: 'uuid' } : { type: 'string' },
        })),
      ];
    }
  }
  return document;
}
