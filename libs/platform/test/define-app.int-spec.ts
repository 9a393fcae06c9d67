/**
 * The whole of an app is its features: one feature module declaring one entity and its migration
 * boots through `createApp` with nothing else declared (no root module, no central lists).
 */
import { randomUUID } from 'node:crypto';
import { Controller, Get, Module, Post, type INestApplication } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IsString, MinLength } from 'class-validator';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import {
  Column,
  Entity,
  PrimaryGeneratedColumn,
  type MigrationInterface,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import { call, createDatabases, databaseUrl, dropDatabases, freePort, testEnv } from '@media/testing';
import { createApp, defineApp, Feature } from '../src';
import { Outbox, EventConsumers } from '@media/messaging';
import { Public } from '@media/http';
import { RpcPayload } from '@media/kernel';

const NOTES_ECHO = `fixture-notes.echo.${randomUUID()}`;

@Entity({ name: 'notes' })
class Note {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  text!: string;
}

class CreateNotes1800000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE notes`);
  }
}

@Public()
@Controller('notes')
class NotesController {
  constructor(@InjectRepository(Note) private readonly notes: Repository<Note>) {}

  @Post()
  async create(): Promise<Note> {
    return this.notes.save(this.notes.create({ text: 'hello' }));
  }

  @Get()
  async list(): Promise<Note[]> {
    return this.notes.find({ order: { id: 'ASC' } });
  }
}

class NoteRequest {
  @IsString()
  @MinLength(1)
  text!: string;
}

/** A NATS responder: `@RpcPayload` hands it the envelope's `data`, validated. */
@Controller()
class NotesRpcController {
  @MessagePattern(NOTES_ECHO)
  echo(@RpcPayload(NoteRequest) request: NoteRequest): { text: string; dto: boolean } {
    return { text: request.text, dto: request instanceof NoteRequest };
  }
}

@Feature({ entities: [Note], migrations: [CreateNotes1800000000000] })
@Module({ imports: [TypeOrmModule.forFeature([Note])], controllers: [NotesController, NotesRpcController] })
class NotesModule {}

const notesApp = defineApp({ name: 'fixture-notes', prefix: 'notes-app', features: [NotesModule] });

describe('an app declared with defineApp', () => {
  const db = `e2e_${Date.now()}_${Math.random().toString(16).slice(2, 8)}_define_app`;
  let app: INestApplication;
  let base: string;
  let nc: NatsConnection;

  /** A request as another app's Nest client sends it; answers Nest's reply packet. */
  const ask = async (data: unknown) => {
    const id = randomUUID();
    const packet = { id, pattern: NOTES_ECHO, data: { data, meta: { request_id: `test-${id}` } } };
    const reply = await nc.request(NOTES_ECHO, JSON.stringify(packet), { timeout: 5_000 });
    return reply.json<{ response?: unknown; err?: { status: number; code: string; detail: unknown } }>();
  };

  beforeAll(async () => {
    await createDatabases([db]);
    const port = await freePort();
    app = await createApp(
      notesApp,
      {
        PORT: String(port),
        DATABASE_URL: databaseUrl(db),
        NATS_URL: testEnv.natsUrl,
        CURSOR_SECRET: 'a'.repeat(48),
        JWT_JWKS_URL: 'http://127.0.0.1:9/jwks.json',
        LOG_LEVEL: 'silent',
      },
      { host: '127.0.0.1' },
    );
    base = `http://127.0.0.1:${port}/notes-app`;
    nc = await connect({ servers: testEnv.natsUrl });
  });

  afterAll(async () => {
    await nc?.drain();
    await app?.close();
    await dropDatabases([db]);
  });

  it('gathers the feature entity and migration, and serves its routes under the prefix', async () => {
    expect(notesApp.database.entities).toEqual([Note]);
    expect(notesApp.database.migrations).toEqual([CreateNotes1800000000000]);
    expect((await call(base, '/notes', { method: 'POST' })).status).toBe(201);
    const list = await call(base, '/notes');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: 1, text: 'hello' }]);
    expect((await call(base, '/health/ready')).status).toBe(200);
  });

  it('runs neither event discovery nor an outbox relay when no feature consumes or publishes', () => {
    expect(notesApp.events).toEqual({ consumes: false, publishes: false });
    expect(() => app.get(Outbox)).toThrow();
    expect(() => app.get(EventConsumers)).toThrow();
  });

  it('validates a NATS request with @RpcPayload: the DTO on success, a 422 at ["data", ...] else', async () => {
    expect(await ask({ text: 'hi' })).toMatchObject({ response: { text: 'hi', dto: true } });
    const bad = await ask({ text: '', extra: 1 });
    expect(bad.err?.status).toBe(422);
    expect((bad.err?.detail as { loc: string[] }[]).map((issue) => issue.loc)).toEqual(
      expect.arrayContaining([
        ['data', 'text'],
        ['data', 'extra'],
      ]),
    );
  });
});
