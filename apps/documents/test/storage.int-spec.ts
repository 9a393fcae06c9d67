/**
 * The two storage drivers against the same expectations: the filesystem one on a temp
 * directory, the S3 one against a real S3-protocol server (s3rver) through @aws-sdk/client-s3.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { DocumentStorage } from '../src/storage/document-storage';
import { FsDocumentStorage } from '../src/storage/fs-storage';
import { S3DocumentStorage } from '../src/storage/s3-storage';
import { startS3Server, type S3Server } from './s3-server';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function keys(storage: DocumentStorage): Promise<string[]> {
  const found: string[] = [];
  for await (const file of storage.list()) found.push(file.key);
  return found.sort();
}

const scratch = mkdtempSync(join(tmpdir(), 'documents-storage-'));

function tempFile(content: Buffer): string {
  const path = join(scratch, `upload-${randomUUID()}`);
  writeFileSync(path, content);
  return path;
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function behavesAsStorage(name: string, make: () => DocumentStorage) {
  describe(name, () => {
    let storage: DocumentStorage;
    beforeAll(() => {
      storage = make();
    });

    it('stores a binary file and reads it back byte for byte, whole and by range', async () => {
      const content = randomBytes(300_000);
      const key = randomUUID();
      await storage.put(key, tempFile(content), content.length);
      const whole = await bytes(await storage.read(key));
      expect(createHash('sha256').update(whole).digest('hex')).toBe(
        createHash('sha256').update(content).digest('hex'),
      );
      expect(await bytes(await storage.read(key, { start: 0, end: 0 }))).toEqual(content.subarray(0, 1));
      expect(await bytes(await storage.read(key, { start: 1000, end: 1999 }))).toEqual(
        content.subarray(1000, 2000),
      );
      expect(
        await bytes(await storage.read(key, { start: content.length - 1, end: content.length - 1 })),
      ).toEqual(content.subarray(content.length - 1));
    });

    it('stores an empty file', async () => {
      const key = randomUUID();
      await storage.put(key, tempFile(Buffer.alloc(0)), 0);
      expect(await bytes(await storage.read(key))).toHaveLength(0);
      expect(await keys(storage)).toContain(key);
    });

    it('lists what it holds with a modification time, and forgets what it removed', async () => {
      const key = randomUUID();
      const before = Date.now() - 5_000;
      await storage.put(key, tempFile(Buffer.from('hello')), 5);
      const listed: { key: string; modifiedAt: Date }[] = [];
      for await (const file of storage.list()) listed.push(file);
      const mine = listed.find((f) => f.key === key);
      expect(mine?.modifiedAt.getTime()).toBeGreaterThan(before);
      await storage.remove(key);
      expect(await keys(storage)).not.toContain(key);
      await expect(storage.read(key)).rejects.toBeDefined();
    });

    it('is claimed by the first installation only, and the claim is not listed as a file', async () => {
      expect(await storage.readOwner()).toBeUndefined();
      const first = randomUUID();
      await storage.claimOwner(first);
      await storage.claimOwner(randomUUID());
      expect(await storage.readOwner()).toBe(first);
      expect((await keys(storage)).every((key) => !key.includes('owner'))).toBe(true);
    });

    it('treats removing a missing file as done', async () => {
      await expect(storage.remove(randomUUID())).resolves.toBeUndefined();
    });
  });
}

const fsDir = join(scratch, 'fs-store');
behavesAsStorage('FsDocumentStorage', () => new FsDocumentStorage(fsDir));

describe('FsDocumentStorage layout', () => {
  it('moves the temp file into <dir>/<2 chars>/<key> and never takes a name from elsewhere', async () => {
    const storage = new FsDocumentStorage(fsDir);
    const key = randomUUID();
    const source = tempFile(Buffer.from('moved'));
    await storage.put(key, source, 5);
    expect(existsSync(source)).toBe(false);
    expect(statSync(join(fsDir, key.slice(0, 2), key)).size).toBe(5);
    expect(readdirSync(join(fsDir, key.slice(0, 2))).filter((n) => n.includes('.part-'))).toEqual([]);
    await expect(storage.put('../escape', source, 5)).rejects.toThrow('Not a storage key');
  });

  it('lists nothing for a directory that does not exist yet', async () => {
    expect(await keys(new FsDocumentStorage(join(scratch, 'missing')))).toEqual([]);
  });
});

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server('documents-int');
});
afterAll(async () => {
  await s3?.stop();
});

const s3Storage = () =>
  new S3DocumentStorage({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    prefix: 'docs/',
  });
behavesAsStorage('S3DocumentStorage (s3rver)', s3Storage);

describe('S3DocumentStorage keys', () => {
  it('keeps objects under its prefix and lists only its own keys', async () => {
    const storage = s3Storage() as S3DocumentStorage;
    const other = new S3DocumentStorage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      prefix: 'elsewhere/',
    });
    const key = randomUUID();
    await other.put(key, tempFile(Buffer.from('x')), 1);
    expect(await keys(storage)).not.toContain(key);
    expect(await keys(other)).toEqual([key]);
    other.destroy();
    storage.destroy();
  });
});
