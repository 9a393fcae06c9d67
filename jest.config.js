/**
 * Three projects: `unit` (*.spec.ts beside the code, no servers), `integration` (*.int-spec.ts:
 * one app or library booted in-process against the real PostgreSQL and NATS) and `e2e`
 * (*.e2e-spec.ts: every app booted as its own process from dist by the global setup).
 * Nest 12 ships ESM only, so those packages are transformed to CommonJS by swc (Jest's CommonJS
 * mode cannot load them otherwise).
 */
const swc = [
  '@swc/jest',
  {
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
      baseUrl: __dirname,
      paths: {
        '@media/app-clients': ['libs/app-clients/src/index.ts'],
        '@media/client': ['libs/client/src/index.ts'],
        '@media/contracts': ['libs/contracts/src/index.ts'],
        '@media/core': ['libs/core/src/index.ts'],
        '@media/http': ['libs/http/src/index.ts'],
        '@media/kernel': ['libs/kernel/src/index.ts'],
        '@media/messaging': ['libs/messaging/src/index.ts'],
        '@media/platform': ['libs/platform/src/index.ts'],
        '@media/testing': ['libs/testing/src/index.ts'],
      },
    },
  },
];

const esmPackages = [
  '@nestjs',
  'file-type',
  'load-esm',
  '@nats-io',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'uid',
  'jose',
  // openapi-typescript (the client's generator, run in-process by a unit test) requires these ESM-only packages.
  'openapi-typescript',
  'parse-json',
  'index-to-position',
  'supports-color',
  'change-case',
];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.data/'],
};

module.exports = {
  // `--shard` (npm test's e2e shards) dealt by each file's time, not by a hash of its path.
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/timeouts.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/timeouts.ts'],
    },
  ],
};
