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

/**
 * The shared libraries in layers, each importing only the ones below it (Nx tags in each
 * project.json). contracts and the typed client import nothing of ours; core is the Nest-free
 * kernel (the gateway's whole platform); kernel the Nest side below http and messaging, which
 * do not import each other; app-clients call other apps over messaging; platform composes an app.
 */
const LAYERS = {
  'layer:contracts': [],
  'layer:client': [],
  'layer:core': ['layer:contracts'],
  'layer:kernel': ['layer:contracts', 'layer:core'],
  'layer:http': ['layer:contracts', 'layer:core', 'layer:kernel'],
  'layer:messaging': ['layer:contracts', 'layer:core', 'layer:kernel'],
  'layer:clients': ['layer:contracts', 'layer:core', 'layer:kernel', 'layer:messaging'],
  'layer:platform': [
    'layer:contracts',
    'layer:core',
    'layer:kernel',
    'layer:http',
    'layer:messaging',
    'layer:clients',
  ],
  // The gateway is plain node:http + undici: of the platform it takes the Nest-free core only.
  'scope:gateway': ['layer:contracts', 'layer:core'],
};

/** The module-boundary constraints; `extra` tags are allowed to every source (the test kit, for tests). */
const boundaries = (extra = []) => [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
  // A layer names itself so that an empty list still reads as "nothing else" to Nx.
  ...Object.entries(LAYERS).map(([sourceTag, below]) => ({
    sourceTag,
    onlyDependOnLibsWithTags: [sourceTag, ...below, ...extra],
  })),
];

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
            ...boundaries(),
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
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
          // Tests may also use the test kit (and the gateway's, the typed client).
          depConstraints: boundaries(['scope:testing', 'layer:client']),
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
    // The gateway is plain node:http + undici (its libraries: the scope:gateway boundary above).
    files: ['apps/gateway/src/**/*.ts'],
    ignores: ['apps/gateway/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
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
