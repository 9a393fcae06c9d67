/**
 * content alone on its own NATS (so no other app answers): a deletion published while content is
 * down is applied when it comes back (durable consumer), a redelivered event is applied once
 * (idempotent on the event id), and acl or documents not answering is a 503 (docs/api/contract.md §5).
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  AclSubjects,
  DocumentsEvents,
  DocumentsSubjects,
  type DocumentDeletedEvent,
  type UserProfile,
} from '@media/contracts';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  mintToken,
  queryDatabase,
  spawnDist,
  startNats,
  waitReady,
  type DistProcess,
  type PrivateNats,
} from '@media/testing';
import { eventually, publishEvent, respond, schedule, system } from './support';

describe('content on its own NATS, with stand-in acl and documents responders', () => {
  const userId = randomUUID();
  const dbName = `e2e_${Date.now()}_${randomUUID().slice(0, 6)}_content_restart`;
  let nats: PrivateNats | undefined;
  let natsUrl: string;
  let app: DistProcess | undefined;
  let base: string;
  let port: number;
  let nc: NatsConnection;
  let acl: Subscription | undefined;
  let docsSub: Subscription | undefined;
  const live = new Set<string>();
  const token = () => mintToken(system().keys, { sub: userId, permissions: ['lineup:read', 'lineup:write'] });
  const db = () => databaseUrl(dbName);

  const startContent = async () => {
    app = spawnDist('content', {
      ...system().env,
      NATS_URL: natsUrl,
      DATABASE_URL: db(),
      CONTENT_PORT: String(port),
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    await waitReady(`${base}/content/health/ready`, app);
  };

  const answerAcl = () =>
    respond<{ ids: string[] }>(nc, AclSubjects.usersGetMany, ({ ids }) =>
      ids
        .filter((id) => id === userId)
        .map(
          (id): UserProfile => ({
            id,
            name: 'Rita Restart',
            email: 'rita@example.com',
            first_name: 'Rita',
            last_name: 'Restart',
            employee_number: 'R-1',
            manager_id: null,
            status: 'ACTIVE',
            roles: ['EDITOR'],
            permissions: [],
            groups: [],
          }),
        ),
    );
  const answerDocuments = () =>
    respond<{ id: string }>(nc, DocumentsSubjects.documentsGet, ({ id }) =>
      live.has(id)
        ? {
            id,
            filename: 'a',
            content_type: 'text/plain',
            size: 1,
            sha256: '0'.repeat(64),
            uploaded_by: userId,
            created_at: new Date().toISOString(),
          }
        : null,
    );

  beforeAll(async () => {
    nats = await startNats();
    natsUrl = nats.url;
    await createDatabases([dbName]);
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    nc = await connect({ servers: natsUrl });
    acl = answerAcl();
    docsSub = answerDocuments();
    await nc.flush();
    await startContent();
  }, 90_000);

  afterAll(async () => {
    await app?.stop();
    await nc?.close();
    await nats?.stop();
    await dropDatabases([dbName]);
  });

  const api = (path: string, request: Parameters<typeof call>[2] = {}) =>
    call<any>(base, `/content/api/v1${path}`, { token: token(), ...request });

  async function attachedSchedule(): Promise<{ id: string; slot: string; doc: string }> {
    const created = await api('/lineup', {
      json: schedule({
        slots: [{ air_date: '2026-03-03', start_time: '09:00', duration_seconds: 60, title: 'x' }],
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.uploaded_by).toEqual({ id: userId, name: 'Rita Restart', employee_number: 'R-1' });
    const slot = (await api(`/lineup/${created.body.id}/slots`)).body.results[0].id as string;
    const doc = randomUUID();
    live.add(doc);
    expect((await api(`/lineup/slots/${slot}/assets`, { json: { document_id: doc } })).status).toBe(200);
    return { id: created.body.id, slot, doc };
  }

  const attachments = async (doc: string) =>
    (
      await queryDatabase<{ n: number }>(
        db(),
        `SELECT count(*)::int AS n FROM slot_assets WHERE document_id = $1`,
        [doc],
      )
    )[0].n;
  const revision = async (id: string) =>
    (
      await queryDatabase<{ revision: number }>(
        db(),
        `SELECT revision FROM broadcast_schedules WHERE id = $1`,
        [id],
      )
    )[0].revision;

  it('applies a deletion published while content was down once it is back', async () => {
    const { id, doc } = await attachedSchedule();
    expect(await revision(id)).toBe(2);
    await app?.stop();
    live.delete(doc);
    await publishEvent<DocumentDeletedEvent>(natsUrl, DocumentsEvents.documentDeleted, {
      document_id: doc,
      uploaded_by: userId,
    } as DocumentDeletedEvent);
    expect(await attachments(doc)).toBe(1);
    await startContent();
    expect(
      await eventually(
        () => attachments(doc),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(await revision(id)).toBe(3);
  }, 90_000);

  it('applies a redelivered event once (the ETag moves by one)', async () => {
    const { id, doc } = await attachedSchedule();
    const eventId = randomUUID();
    const data = { document_id: doc, uploaded_by: userId } as DocumentDeletedEvent;
    await publishEvent(natsUrl, DocumentsEvents.documentDeleted, data, eventId);
    await publishEvent(natsUrl, DocumentsEvents.documentDeleted, data, eventId);
    expect(
      await eventually(
        () => attachments(doc),
        (n) => n === 0,
      ),
    ).toBe(0);
    const processed = await eventually(
      async () =>
        (
          await queryDatabase<{ n: number }>(
            db(),
            `SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1`,
            [eventId],
          )
        )[0].n,
      (n) => n === 1,
    );
    expect(processed).toBe(1);
    // A later event, through the same consumer in order: once it is applied, so is the repeat.
    const marker = await publishEvent(natsUrl, DocumentsEvents.documentDeleted, {
      document_id: randomUUID(),
      uploaded_by: userId,
    } as DocumentDeletedEvent);
    await eventually(
      () => queryDatabase(db(), `SELECT 1 FROM processed_events WHERE event_id = $1`, [marker]),
      (rows) => rows.length === 1,
    );
    expect(await revision(id)).toBe(3);
  });

  it('answers 503 when acl does not answer, and when documents does not', async () => {
    const { id, slot } = await attachedSchedule();
    await acl?.drain();
    const read = await api(`/lineup/${id}`);
    expect(read.status).toBe(503);
    expect(read.body).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
    const createWhileDown = await api('/lineup', { json: schedule({ title: 'not stored' }) });
    expect(createWhileDown.status).toBe(503);
    expect(await queryDatabase(db(), `SELECT 1 FROM broadcast_schedules WHERE title = 'not stored'`)).toEqual(
      [],
    );
    acl = answerAcl();
    await docsSub?.drain();
    const doc = randomUUID();
    live.add(doc);
    const attach = await api(`/lineup/slots/${slot}/assets`, { json: { document_id: doc } });
    expect(attach.status).toBe(503);
    expect(attach.body.code).toBe('upstream_unavailable');
    docsSub = answerDocuments();
    await nc.flush();
    expect((await api(`/lineup/slots/${slot}/assets`, { json: { document_id: doc } })).status).toBe(200);
  }, 30_000);
});
