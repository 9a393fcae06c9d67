/**
 * The gateway's limits against the real system: bodies over the limit to acl's public token endpoint through
 * the gateway are 413 every time (docs/api/contract.md §2), and an anonymous 40 MB chunked multipart body is
 * answered (acl's 415: the route declares no multipart) instead of a cut connection.
 */
import { stack, type StackInfo } from '@media/testing';
import { expectEarly415, expectTooLarge, head, postBody, RawConnection } from './support/raw-client';

const BODY_LIMIT = 1024 * 1024;
const TOKEN_PATH = '/acl/api/v1/auth/token';
let system: StackInfo;
let port: number;

beforeAll(() => {
  system = stack();
  port = Number(new URL(system.gatewayUrl).port);
});

const json = { 'content-type': 'application/json', 'content-length': BODY_LIMIT + 1 };

it('answers 40 sequential JSON posts just over 1 MiB on a keep-alive connection with 413, never a reset or a hang', async () => {
  let connection = await RawConnection.open(port);
  for (let i = 0; i < 40; i += 1) {
    const answer = await postBody(connection, TOKEN_PATH, BODY_LIMIT + 1, json);
    expectTooLarge(answer);
    if (answer.headers.connection === 'close') {
      expect(await connection.waitClosed(5_000)).toBe(true);
      connection = await RawConnection.open(port);
    }
  }
  await connection.write(head('GET', '/health/live'));
  expect((await connection.read(2_000)).status).toBe(200);
  connection.destroy();
});

it('answers 40 JSON posts just over 1 MiB, each on a new connection, with 413', async () => {
  for (let i = 0; i < 40; i += 1) {
    const connection = await RawConnection.open(port);
    expectTooLarge(await postBody(connection, TOKEN_PATH, BODY_LIMIT + 1, json));
    connection.destroy();
  }
});

it('answers an anonymous 40 MB chunked multipart body with acl’s 415 and closes, within seconds', async () => {
  await expectEarly415(port, TOKEN_PATH);
});
