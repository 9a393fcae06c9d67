import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';

/** Swagger UI's static files (swagger-ui-dist, installed with @nestjs/swagger), by public name. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page at `/docs`, pointing Swagger UI at the merged `/openapi.json`. */
const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Media back-office API</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script>
      window.ui = SwaggerUIBundle({
        url: '/openapi.json',
        dom_id: '#swagger-ui',
        deepLinking: true,
        persistAuthorization: true,
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: 'StandaloneLayout',
      });
    </script>
  </body>
</html>
`;

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/.exec(PAGE)?.[1] ?? '';

/** The docs page's Content-Security-Policy: its own assets, and its one inline script by hash. */
export const DOCS_CSP = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

let assetDir: string | undefined;

function swaggerUiDir(): string {
  // Resolved on first use: a gateway that never serves /docs does not need the package.
  assetDir ??= dirname(require.resolve('swagger-ui-dist/package.json'));
  return assetDir;
}

/** Serves `/docs` and its assets; false when `path` is not one of them. */
export function serveDocs(path: string, res: ServerResponse): boolean {
  if (path === '/docs' || path === '/docs/') {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(PAGE),
    });
    res.end(PAGE);
    return true;
  }
  const name = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!type) return false;
  const file = createReadStream(join(swaggerUiDir(), name));
  file.once('open', () => {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    file.pipe(res);
  });
  file.once('error', () => {
    if (!res.headersSent) res.writeHead(404).end();
    else res.destroy();
  });
  return true;
}
