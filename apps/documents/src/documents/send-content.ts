import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams a stored file to the client after its headers went out. A client that goes away
 * mid-download ends it quietly (the source is destroyed too: no leaked file handle or S3
 * socket). A storage failure mid-way is handed to `onStorageError` (the controller logs it) and
 * cuts the answer short: the client sees a reset connection, never a complete-looking file.
 */
export async function sendContent(
  body: Readable,
  res: Writable,
  onStorageError: (error: Error) => void,
): Promise<void> {
  let failure: Error | undefined;
  // A client abort destroys the source after the response closed; a storage error comes first.
  body.once('error', (error) => {
    if (!res.destroyed) failure = error;
  });
  await pipeline(body, res).catch(() => undefined);
  if (failure) onStorageError(failure);
}
