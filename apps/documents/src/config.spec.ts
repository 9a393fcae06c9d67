import { ConfigError } from '@media/core';
import { documentsConfig } from './config';

const base = {
  PORT: '3007',
  DATABASE_URL: 'postgres://u@h/db',
  NATS_URL: 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'x'.repeat(32),
};

describe('documents config', () => {
  it('defaults to the filesystem driver under DATA_DIR/documents, STORAGE_DIR winning', () => {
    expect(documentsConfig.load(base).storage).toEqual({ driver: 'fs', dir: '.data/documents' });
    expect(documentsConfig.load({ ...base, DATA_DIR: '/srv/media' }).storage).toEqual({
      driver: 'fs',
      dir: '/srv/media/documents',
    });
    expect(documentsConfig.load({ ...base, STORAGE_DIR: '/mnt/files' }).storage).toEqual({
      driver: 'fs',
      dir: '/mnt/files',
    });
  });

  it('needs S3_BUCKET with the S3 driver, and reads the rest with defaults', () => {
    expect(() => documentsConfig.load({ ...base, DOCUMENTS_STORAGE: 's3' })).toThrow(
      new ConfigError('S3_BUCKET', 'is required'),
    );
    const { storage } = documentsConfig.load({
      ...base,
      DOCUMENTS_STORAGE: 's3',
      S3_BUCKET: 'media-docs',
      S3_ENDPOINT: 'http://minio:9000',
    });
    expect(storage).toEqual({
      driver: 's3',
      bucket: 'media-docs',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: undefined,
      prefix: '',
    });
  });

  it('refuses an unknown driver, a bad bucket name, a prefix without its slash and a bad duration', () => {
    const bad: [Record<string, string>, string][] = [
      [{ DOCUMENTS_STORAGE: 'ftp' }, 'DOCUMENTS_STORAGE'],
      [{ DOCUMENTS_STORAGE: 's3', S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
      [{ DOCUMENTS_STORAGE: 's3', S3_BUCKET: 'ok-bucket', S3_PREFIX: 'docs' }, 'S3_PREFIX'],
      [{ DOCUMENTS_STORAGE: 's3', S3_BUCKET: 'ok-bucket', S3_ACCESS_KEY_ID: 'k' }, 'S3_SECRET_ACCESS_KEY'],
      [{ DOCUMENTS_SWEEP_INTERVAL: 'soon' }, 'DOCUMENTS_SWEEP_INTERVAL'],
    ];
    for (const [env, variable] of bad) {
      expect(() => documentsConfig.load({ ...base, ...env })).toThrow(
        expect.objectContaining({ variable }) as unknown as Error,
      );
    }
    expect(documentsConfig.load({ ...base, DOCUMENTS_SWEEP_INTERVAL: '5m' }).sweeper.interval).toBe(300_000);
  });
});
