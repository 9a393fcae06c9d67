import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Something that digests the bytes written, in order (the file's SHA-256, a chunk's checksum). */
export interface Digest {
  update(bytes: Uint8Array): unknown;
}

/** Thrown when a chunk brings more bytes than the upload has left. */
export class ChunkTooLong extends Error {
  constructor(readonly room: number) {
    super(`The chunk passes Upload-Length (${room} bytes left).`);
  }
}

/**
 * Writes a chunk to a file at `position` on, and feeds each piece to the digests only once it
 * is written: when the stream stops short (the client went away), `written` bytes are on file
 * and exactly those were digested, so the upload continues from there. No more than one piece
 * is held at a time (backpressure does the rest).
 */
export class ChunkWriter extends Writable {
  written = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly handle: FileHandle,
    private readonly position: number,
    private readonly room: number,
    private readonly digests: Digest[],
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.written + chunk.length > this.room) return callback(new ChunkTooLong(this.room));
    this.pending = this.writeAll(chunk);
    this.pending.then(() => callback(), callback);
  }

  /** Resolves once no write is under way (a destroyed stream may still have one finishing). */
  async settled(): Promise<void> {
    await this.pending.catch(() => undefined);
  }

  private async writeAll(chunk: Buffer): Promise<void> {
    let done = 0;
    while (done < chunk.length) {
      const { bytesWritten } = await this.handle.write(
        chunk,
        done,
        chunk.length - done,
        this.position + this.written + done,
      );
      done += bytesWritten;
    }
    for (const digest of this.digests) digest.update(chunk);
    this.written += chunk.length;
  }
}
