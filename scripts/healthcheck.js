#!/usr/bin/env node
// Container healthcheck, shipped in the image as /app/healthcheck.js:
//   node healthcheck.js /content/health/ready
// GETs http://127.0.0.1:$PORT<path> (PORT as the app reads it, 3000 by default) and exits 0 on a
// 2xx answer, 1 otherwise (error, non-2xx, no answer within 4 s). A script rather than
// `node -e "..."`, which some engines (podman 4.3) split on its spaces.
'use strict';

const path = process.argv[2] || '/health/ready';
const port = process.env.PORT || '3000';
const url = `http://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`;

fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => {
    if (!res.ok) process.stderr.write(`healthcheck: ${url} answered ${res.status}\n`);
    process.exit(res.ok ? 0 : 1);
  },
  (error) => {
    process.stderr.write(`healthcheck: ${url}: ${error.message}\n`);
    process.exit(1);
  },
);
