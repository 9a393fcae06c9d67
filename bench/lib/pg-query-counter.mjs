/**
 * A TCP proxy in front of PostgreSQL that counts the statements an app sends: every simple
 * `Query` ('Q') and every extended-protocol `Execute` ('E') message, each with its SQL text (the
 * `Parse` that preceded it on the connection). It reads the frontend protocol only, so it needs
 * no server setting (pg_stat_statements, log_statement) and counts exactly what the app sends.
 * Plain connections only (the apps connect without TLS here; an SSLRequest is refused with 'N').
 */
import { createConnection, createServer } from 'node:net';

/**
 * The statements of `statements` that `isBackground` names, with the rest of each transaction
 * one of them is in (its `START TRANSACTION`, `COMMIT` and the statements between, on the same
 * connection): a worker's pass that runs in a transaction is background as a whole.
 */
export function backgroundStatements(statements, isBackground) {
  const background = new Set();
  const open = new Map(); // connection -> the statements of its open transaction
  for (const statement of statements) {
    const { connection, sql } = statement;
    const transaction = open.get(connection);
    if (/^\s*(START TRANSACTION|BEGIN)\b/i.test(sql)) {
      open.set(connection, [statement]);
      continue;
    }
    if (!transaction) {
      if (isBackground(sql)) background.add(statement);
      continue;
    }
    transaction.push(statement);
    if (/^\s*(COMMIT|ROLLBACK)\b/i.test(sql)) {
      open.delete(connection);
      if (transaction.some((s) => isBackground(s.sql))) for (const s of transaction) background.add(s);
    }
  }
  return background;
}

/** Starts the proxy on a free port; `url(real)` rewrites a database URL to go through it. */
export async function startQueryCounter(target = { host: '127.0.0.1', port: 5432 }) {
  const statements = [];
  const sockets = new Set();
  let connections = 0;
  const server = createServer((client) => {
    const connection = ++connections;
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    let buffer = Buffer.alloc(0);
    let started = false;
    let parsed = '';
    client.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const out = [];
      for (;;) {
        if (!started) {
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) break;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === 80877103) {
            client.write('N'); // SSLRequest: not here; the client goes on in plain text.
            continue;
          }
          started = true;
          out.push(message);
          continue;
        }
        if (buffer.length < 5) break;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) break;
        const type = String.fromCharCode(buffer[0]);
        const message = buffer.subarray(0, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type === 'Q') statements.push({ at: performance.now(), connection, sql: cstring(message, 5) });
        if (type === 'P') {
          const nameEnd = message.indexOf(0, 5);
          parsed = cstring(message, nameEnd + 1);
        }
        if (type === 'E') statements.push({ at: performance.now(), connection, sql: parsed });
        out.push(message);
      }
      if (out.length > 0) upstream.write(Buffer.concat(out));
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    url(real) {
      const url = new URL(real);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    /** Statements sent since `from` (a `performance.now()`), optionally until `to`. */
    since(from, to = Infinity) {
      return statements.filter((s) => s.at >= from && s.at <= to);
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

function cstring(buffer, start) {
  const end = buffer.indexOf(0, start);
  return buffer.toString('utf8', start, end === -1 ? buffer.length : end);
}
