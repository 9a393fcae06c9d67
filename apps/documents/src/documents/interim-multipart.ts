import { createHash, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'express';
import { UnsupportedMediaType } from '@media/platform';
import type { ReceivedFile } from './documents.service';

interface MulterFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/**
 * Bridges the platform's current multipart parsing (whole files in memory) to the temp-file
 * shape `@Multipart({ files })` hands over, so the rest of the upload path is the final one.
 */
export async function receivedFiles(req: Request, field: string): Promise<ReceivedFile[]> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'multipart/form-data') throw new UnsupportedMediaType(type || 'none', ['multipart/form-data']);
  const files = ((req as Request & { files?: MulterFile[] }).files ?? []).filter(
    (f) => f.fieldname === field,
  );
  const received: ReceivedFile[] = [];
  for (const file of files) {
    const path = join(tmpdir(), `upload-${randomUUID()}`);
    await writeFile(path, file.buffer);
    received.push({
      path,
      filename: file.originalname,
      mimetype: file.mimetype,
      size: file.size,
      sha256: createHash('sha256').update(file.buffer).digest('hex'),
    });
  }
  return received;
}

export async function removeReceived(files: ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}
