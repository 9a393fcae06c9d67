import { ConfigError, validateConfig } from '@media/platform';
import { DocumentsConfig } from './config';

const base = {
  PORT: '3007',
  DATABASE_URL: 'postgres://u@h/db',
  NATS_URL: 'nats://127.0.0.1:4222',
  CURSOR_SECRET: 'x'.repeat(32),
};

describe('DocumentsConfig', () => {
  it('defaults to the filesystem driver under DATA_DIR/documents, STORAGE_DIR winning', () => {
    const config = validateConfig(DocumentsConfig, base);
    expect(config.DOCUMENTS_STORAGE).toBe('fs');
    expect(config.storageDir()).toBe('.data/documents');
    expect(validateConfig(DocumentsConfig, { ...base, DATA_DIR: '/srv/media' }).storageDir()).toBe(
      '/srv/media/documents',
    );
    expect(validateConfig(DocumentsConfig, { ...base, STORAGE_DIR: '/mnt/files' }).storageDir()).toBe(
      '/mnt/files',
    );
  });

  it('needs S3_BUCKET with the S3 driver, and reads the rest with defaults', () => {
    expect(() => validateConfig(DocumentsConfig, { ...base, DOCUMENTS_STORAGE: 's3' })).toThrow(
      new ConfigError('S3_BUCKET', 'is required'),
    );
    const config = validateConfig(DocumentsConfig, {
      ...base,
      DOCUMENTS_STORAGE: 's3',
      S3_BUCKET: 'media-docs',
      S3_ENDPOINT: 'http://minio:9000',
    });
    expect(config.S3_REGION).toBe('us-east-1');
    expect(config.S3_FORCE_PATH_STYLE).toBe('true');
    expect(config.S3_PREFIX).toBe('');
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
      expect(() => validateConfig(DocumentsConfig, { ...base, ...env })).toThrow(
        expect.objectContaining({ variable }) as unknown as Error,
      );
    }
    expect(
      validateConfig(DocumentsConfig, { ...base, DOCUMENTS_SWEEP_INTERVAL: '5m' }).DOCUMENTS_SWEEP_INTERVAL,
    ).toBe(300_000);
  });
});
