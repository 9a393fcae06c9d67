/**
 * Bodies over the limit through the gateway (docs/api/contract.md §2: "a body over the limit: 413, answered
 * after reading at most the limit, so the client sees the status"), and upstream answers that
 * come before the body was sent (relayed, never a 503, a reset or a hang).
 */
import {
  startFakeUpstream,
  bootGateway,
  BODY_LIMIT,
  UPLOAD_LIMIT,
  type BootedGateway,
  type FakeUpstream,
} from './support/fake-upstream';
import { expectEarly415, expectTooLarge, head, postBody, RawConnection } from './support/raw-client';

let upstream: FakeUpstream;
let gw: BootedGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  // BODY_LIMIT and UPLOAD_LIMIT here; the smaller limit of bodies without a token is
  // public-bodies.e2e-spec.ts's.
  gw = await bootGateway(upstream, { PUBLIC_BODY_LIMIT: String(UPLOAD_LIMIT) });
});

afterAll(async () => {
  await gw.gateway.close();
  await upstream.close();
});

const TOKEN_PATH = '/acl/api/v1/auth/token';

describe('413 through the gateway every time', () => {
  const json = (size: number) => ({ 'content-type': 'application/json', 'content-length': size });

  it('answers 40 sequential over-limit JSON posts on one keep-alive connection with 413, never a reset or a hang', async () => {
    let connection = await RawConnection.open(gw.port);
    let reopened = 0;
    for (let i = 0; i < 40; i += 1) {
      const answer = await postBody(connection, TOKEN_PATH, BODY_LIMIT + 1, json(BODY_LIMIT + 1));
      expectTooLarge(answer);
      if (answer.headers.connection === 'close') {
        // The gateway said it closes: it must then do so promptly (no hang), and cleanly.
        expect(await connection.waitClosed(5_000)).toBe(true);
        connection = await RawConnection.open(gw.port);
        reopened += 1;
      }
    }
    // The connection, where kept, still serves the next request at once.
    await connection.write(head('GET', '/health/live'));
    expect((await connection.read(2_000)).status).toBe(200);
    connection.destroy();
    expect(reopened).toBeLessThanOrEqual(40);
  });

  it('answers 40 over-limit JSON posts each on a new connection with 413', async () => {
    for (let i = 0; i < 40; i += 1) {
      const connection = await RawConnection.open(gw.port);
      expectTooLarge(await postBody(connection, TOKEN_PATH, BODY_LIMIT + 1, json(BODY_LIMIT + 1)));
      connection.destroy();
    }
  });

  it('refuses a declared Content-Length over BODY_LIMIT itself, without forwarding it', async () => {
    const before = upstream.hits.get(TOKEN_PATH) ?? 0;
    const connection = await RawConnection.open(gw.port);
    await connection.write(head('POST', TOKEN_PATH, json(BODY_LIMIT + 1)));
    // No body sent at all: the answer comes from the declared length alone.
    const answer = await connection.read(2_000);
    expectTooLarge(answer);
    expect(answer.headers.connection).toBe('close');
    expect(upstream.hits.get(TOKEN_PATH) ?? 0).toBe(before);
    connection.destroy();
  });

  it('lets a JSON body of exactly BODY_LIMIT bytes through', async () => {
    const connection = await RawConnection.open(gw.port);
    const answer = await postBody(connection, TOKEN_PATH, BODY_LIMIT, json(BODY_LIMIT));
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ bytes: BODY_LIMIT });
    connection.destroy();
  });

  it('counts a chunked JSON body and answers 413 once it passes BODY_LIMIT, 20 times in a row', async () => {
    for (let i = 0; i < 20; i += 1) {
      const connection = await RawConnection.open(gw.port);
      const answer = await postBody(
        connection,
        TOKEN_PATH,
        BODY_LIMIT * 3,
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        true,
      );
      expectTooLarge(answer);
      connection.destroy();
    }
  });

  it('relays the upstream’s early 415 to an anonymous 40 MB chunked multipart body, within seconds and without holding it', async () => {
    // Limits above the body's size: only the upstream's answer can end the exchange. Under the
    // 4 MB limit the gateway's own 413 may come first when this process (client, gateway and
    // upstream in one event loop) is slow to read the 415 (seen once on a loaded machine).
    const roomy = await bootGateway(upstream, {
      UPLOAD_LIMIT: String(64 * 1024 * 1024),
      PUBLIC_BODY_LIMIT: String(64 * 1024 * 1024),
    });
    try {
      const rssBefore = process.memoryUsage().rss;
      for (let i = 0; i < 3; i += 1) await expectEarly415(roomy.port, TOKEN_PATH);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(30 * 1024 * 1024);
    } finally {
      await roomy.gateway.close();
    }
  });
});
