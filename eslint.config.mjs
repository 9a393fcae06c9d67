import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** `@media/testing` (or a path into libs/testing): for tests only. */
const TESTING_IMPORTS = {
  group: ['@media/testing', '@media/testing/*', '**/libs/testing/**', '**/testing/src/**'],
  message: 'Production code must not import the test kit (@media/testing).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.nx/**', '.data/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Production code never loads the test kit; tests switch this off below.
      'no-restricted-imports': ['error', { patterns: [TESTING_IMPORTS] }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
          ],
        },
      ],
    },
  },
  {
    // Tests may use loose JSON bodies and the testing library.
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      '**/test/**/*.ts',
      'libs/testing/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-imports': 'off',
      // A committed `.only` silently skips every other test of the run.
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].map((object) => ({
          object,
          property: 'only',
          message: 'Committed .only skips the rest of the suite; remove it.',
        })),
      ],
      'no-restricted-globals': [
        'error',
        ...['fit', 'fdescribe', 'ftest'].map((name) => ({
          name,
          message: 'Focused tests skip the rest of the suite; remove the f prefix.',
        })),
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
          ],
        },
      ],
    },
  },
  {
    // The contracts are plain types and constants every side shares: they depend on nothing.
    files: ['libs/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            TESTING_IMPORTS,
            {
              group: ['@media/*', '**/libs/platform/**', '**/platform/src/**', '@nestjs/*', 'typeorm'],
              message: 'libs/contracts imports nothing from the platform, Nest or TypeORM.',
            },
          ],
        },
      ],
    },
  },
  {
    // The typed client is for any TypeScript program: openapi-fetch and its generated types only.
    files: ['libs/client/**/*.ts'],
    ignores: ['libs/client/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            TESTING_IMPORTS,
            {
              group: ['@media/*', '**/libs/platform/**', '**/apps/**', '@nestjs/*', 'typeorm', '@nats-io/*'],
              message: 'libs/client imports openapi-fetch and its generated types, nothing of the servers.',
            },
          ],
        },
      ],
    },
  },
  {
    // The gateway is plain node:http + undici: it takes the Nest-free platform entry only.
    files: ['apps/gateway/src/**/*.ts'],
    ignores: ['apps/gateway/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@media/platform',
              message: 'The gateway imports @media/platform/core (no Nest, TypeORM or NATS).',
            },
          ],
          patterns: [
            TESTING_IMPORTS,
            {
              group: ['@nestjs/*', 'typeorm', '@nats-io/*', 'express'],
              message: 'The gateway does not load Nest, TypeORM, NATS or Express.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one NATS the gateway uses: hearing of revoked tokens from acl (a subscription and a request).
    files: ['apps/gateway/src/revocation/**/*.ts'],
    ignores: ['apps/gateway/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@media/platform',
              message: 'The gateway imports @media/platform/core (no Nest, TypeORM or NATS).',
            },
          ],
          patterns: [
            TESTING_IMPORTS,
            {
              group: ['@nestjs/*', 'typeorm', '@nats-io/jetstream', 'express'],
              message: 'The gateway does not load Nest, TypeORM, JetStream or Express.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  prettier,
);
