import { readFile } from 'node:fs/promises';
import { ValidationFailed } from '@media/core';
import type { UploadedFileInfo } from '@media/http';

/** The field of a multipart `POST /lineup` that carries the CSV. */
export const CSV_FIELD = 'file';

/**
 * The bytes of the CSV `file` of a multipart `POST /lineup` (already on disk, within
 * UPLOAD_LIMIT), or undefined when none was sent. One file only.
 */
export async function uploadedCsv(files: UploadedFileInfo[]): Promise<Buffer | undefined> {
  const csv = files.filter((f) => f.field === CSV_FIELD);
  if (csv.length > 1) throw ValidationFailed.at(['body', CSV_FIELD], 'Send one CSV file', 'too_long');
  return csv[0] ? readFile(csv[0].path) : undefined;
}
