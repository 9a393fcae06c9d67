import type { Request } from 'express';
import { ValidationFailed } from '@media/platform';

interface UploadedPart {
  fieldname: string;
  buffer: Buffer;
}

/**
 * The CSV `file` of a multipart `POST /lineup`, read by the platform's body parsing. A file in
 * any other field is refused like any unknown field.
 */
export function uploadedCsv(req: Request): Buffer | undefined {
  const files = ((req as Request & { files?: UploadedPart[] }).files ?? []) as UploadedPart[];
  const extra = files.filter((f) => f.fieldname !== 'file');
  if (extra.length > 0)
    throw new ValidationFailed(
      extra.map((f) => ({
        loc: ['body', f.fieldname],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      })),
    );
  const csv = files.filter((f) => f.fieldname === 'file');
  if (csv.length > 1) throw ValidationFailed.at(['body', 'file'], 'Send one file', 'too_long');
  return csv[0]?.buffer;
}
