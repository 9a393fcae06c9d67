import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, opendir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  DocumentStorage,
  documentIdOfKey,
  type ByteRange,
  type ChunkTarget,
  type ResumableState,
  type StoredFile,
} from './document-storage';

const OWNER_FILE = '.owner';

/**
 * Files under one directory, fanned out by the key's first two characters
 * (`<dir>/ab/ab12...`) so no directory grows huge. A file appears under its key only complete:
 * it is renamed into place (copied to a `.part-*` sibling first when the source is on another
 * filesystem).
 */
export class FsDocumentStorage extends DocumentStorage {
  readonly kind = 'fs';

  constructor(private readonly dir: string) {
    super();
  }

  private path(key: string): string {
    if (!documentIdOfKey(key)) throw new Error(`Not a storage key: ${key}`);
    return join(this.dir, key.slice(0, 2), key);
  }

  /** An unfinished resumable upload: a sibling the listing (and so the orphan sweep) ignores. */
  private resumablePath(key: string): string {
    return `${this.path(key)}.tus`;
  }

  async startResumable(key: string): Promise<ResumableState> {
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    await writeFile(this.resumablePath(key), '', { flag: 'w' });
    return {};
  }

  /**
   * Chunks are written in place at their offset; bytes past it (written before a crash, never
   * committed) are cut first, so the file is always exactly the committed bytes plus this chunk.
   */
  async openChunk(key: string, _state: ResumableState, offset: number): Promise<ChunkTarget> {
    const path = this.resumablePath(key);
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(offset);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return {
      handle,
      position: offset,
      keep: async (_received, last) => {
        // The offset is committed after this: the bytes it counts must be on disk.
        await handle.datasync().finally(() => handle.close());
        if (last) await rename(path, this.path(key));
        return { state: {}, cleanup: async () => undefined };
      },
      discard: async () => {
        await handle.truncate(offset).finally(() => handle.close());
      },
    };
  }

  async removeResumable(key: string): Promise<void> {
    await rm(this.resumablePath(key), { force: true });
  }

  async put(key: string, sourcePath: string, _size?: number): Promise<void> {
    const target = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    try {
      await rename(sourcePath, target);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
    const partial = this.path(`${key}.part-${randomBytes(4).toString('hex')}`);
    try {
      await copyFile(sourcePath, partial);
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    // Opened first, so a missing file is an error here and not in the middle of a response.
    const handle = await open(this.path(key), 'r');
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async *list(): AsyncIterable<StoredFile> {
    let top;
    try {
      top = await opendir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for await (const fan of top) {
      if (!fan.isDirectory() || !/^[0-9a-f]{2}$/.test(fan.name)) continue;
      for await (const entry of await opendir(join(this.dir, fan.name))) {
        if (!entry.isFile() || !documentIdOfKey(entry.name)) continue;
        const info = await stat(join(this.dir, fan.name, entry.name)).catch(() => undefined);
        if (info) yield { key: entry.name, modifiedAt: info.mtime };
      }
    }
  }

  async readOwner(): Promise<string | undefined> {
    try {
      return (await readFile(join(this.dir, OWNER_FILE), 'utf8')).trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async claimOwner(id: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    try {
      await writeFile(join(this.dir, OWNER_FILE), `${id}\n`, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
