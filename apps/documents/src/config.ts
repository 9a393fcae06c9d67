import { join } from 'node:path';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Min, MinLength, ValidateIf } from 'class-validator';
import { defineConfig, platformConfig, PlatformEnv, toBytes, toDuration, type ConfigOf } from '@media/core';

const DURATION = 'must be a duration such as 30000, 30s, 10m or 1h';
const whenS3 = (env: DocumentsEnv) => env.DOCUMENTS_STORAGE === 's3';

/**
 * documents's variables: the platform's (docs/api/contract.md §6) plus where stored files go.
 * `fs` (default) keeps them under STORAGE_DIR, one replica with its volume; `s3` keeps them in an
 * S3-compatible bucket, so any number of replicas can serve them.
 */
export class DocumentsEnv extends PlatformEnv {
  /** Where stored files go: `fs` (a directory, one replica) or `s3` (a bucket, any number of replicas). */
  @IsIn(['fs', 's3'], { message: 'must be fs or s3' })
  DOCUMENTS_STORAGE: 'fs' | 's3' = 'fs';

  /** The embedded default's data directory; stored files default to `DATA_DIR/documents`. */
  @IsString()
  DATA_DIR: string = './.data';

  /** Where the filesystem driver keeps files (the embedded runner, compose and Kubernetes set it). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  STORAGE_DIR?: string;

  /** The bucket (required with `DOCUMENTS_STORAGE=s3`). */
  @ValidateIf(whenS3)
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  S3_BUCKET?: string;

  /** An S3-compatible endpoint (MinIO, Ceph, R2...); unset means AWS itself. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  S3_ENDPOINT?: string;

  /** The bucket's region. */
  @IsString()
  S3_REGION: string = 'us-east-1';

  /** Credentials; when unset the SDK's default chain is used (IAM role, web identity...). */
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  /** The secret of `S3_ACCESS_KEY_ID`. */
  @ValidateIf((env: DocumentsEnv) => env.S3_ACCESS_KEY_ID !== undefined)
  @IsString({ message: 'is required with S3_ACCESS_KEY_ID' })
  S3_SECRET_ACCESS_KEY?: string;

  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted servers need. */
  @IsIn(['true', 'false'])
  S3_FORCE_PATH_STYLE: 'true' | 'false' = 'true';

  /** Prefix of every object key, so one bucket can hold several installations. */
  @Matches(/^([A-Za-z0-9!_.*'()-]+\/)*$/, { message: "must be empty or end in '/' (e.g. documents/)" })
  S3_PREFIX: string = '';

  /** How often the sweeper looks for stored files without a live record. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(100)
  DOCUMENTS_SWEEP_INTERVAL: number = 10 * 60_000;

  /** A stored file younger than this is never swept: its upload may still be committing. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(0)
  DOCUMENTS_SWEEP_GRACE: number = 15 * 60_000;

  /** The largest resumable (tus) upload, `Tus-Max-Size`: a larger `Upload-Length` is 413. */
  @Transform(toBytes)
  @IsInt({ message: 'must be a size in bytes such as 10737418240 or 10gb' })
  @Min(1)
  TUS_MAX_SIZE: number = 10 * 1024 ** 3;

  /** How long an unfinished resumable upload is kept (`Upload-Expires`); then it is swept. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1_000)
  TUS_EXPIRY: number = 24 * 60 * 60_000;
}

export const documentsConfig = defineConfig(DocumentsEnv, (env) => ({
  ...platformConfig(env),
  storage:
    env.DOCUMENTS_STORAGE === 's3'
      ? {
          driver: 's3' as const,
          bucket: env.S3_BUCKET ?? '',
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
          prefix: env.S3_PREFIX,
        }
      : { driver: 'fs' as const, dir: env.STORAGE_DIR ?? join(env.DATA_DIR, 'documents') },
  sweeper: { interval: env.DOCUMENTS_SWEEP_INTERVAL, grace: env.DOCUMENTS_SWEEP_GRACE },
  tus: { maxSize: env.TUS_MAX_SIZE, expiry: env.TUS_EXPIRY },
}));

/** documents's typed config. */
export type DocumentsConfig = ConfigOf<typeof documentsConfig>;
