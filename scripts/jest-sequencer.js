'use strict';
/**
 * Jest's test sequencer (jest.config.js), with `--shard=<i>/<n>` balanced by time: `npm test`
 * runs the e2e files as shards, each against a stack of its own (scripts/test.mjs), and the run
 * lasts as long as its slowest shard. Files are dealt longest first, each to the shard with the
 * least time so far (by scripts/e2e-durations.json, seconds per file of an earlier run; a file
 * missing there counts as 5 s, about an e2e file's mean), so every shard's process computes the
 * same split from the same files (Jest's own split deals them by a hash of the path, blind to their length).
 * Order within a shard is Jest's (failed last time first, then slowest, from its cache).
 *
 * `node scripts/jest-sequencer.js dist/jest-results.json` rewrites the table from a Jest JSON
 * report (`npm test -- --json-report=dist/jest-results.json`, as `.ci/run` writes it; one of
 * another checkout, a clean clone's, will do).
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..');
const TABLE = join(__dirname, 'e2e-durations.json');

/** A test file's path as the table keys it: from the repository's root, with `/`. */
const key = (path) => relative(ROOT, path).split(sep).join('/');

function readTable() {
  try {
    return JSON.parse(readFileSync(TABLE, 'utf8'));
  } catch {
    return {};
  }
}

/** The seconds of a file the table does not list. */
const UNKNOWN_SECONDS = 5;

class BalancedSequencer extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const table = readTable();
    const seconds = (test) => table[key(test.path)] ?? UNKNOWN_SECONDS;
    const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const ordered = [...tests].sort((a, b) => seconds(b) - seconds(a) || byPath(a, b));
    const loads = new Array(shardCount).fill(0);
    const mine = [];
    for (const test of ordered) {
      let lightest = 0;
      for (let i = 1; i < shardCount; i++) if (loads[i] < loads[lightest]) lightest = i;
      loads[lightest] += seconds(test);
      if (lightest === shardIndex - 1) mine.push(test);
    }
    return mine;
  }
}

module.exports = BalancedSequencer;

if (require.main === module) {
  const report = process.argv[2];
  if (!report) {
    process.stderr.write('usage: node scripts/jest-sequencer.js <jest JSON report>\n');
    process.exit(2);
  }
  /** The file of this checkout a report's path names (the report may be from another checkout). */
  const here = (path) => {
    const parts = path.split(sep);
    for (let i = 1; i < parts.length; i++) {
      const candidate = parts.slice(i).join('/');
      if (existsSync(join(ROOT, candidate))) return candidate;
    }
    return undefined;
  };
  const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
  const table = Object.fromEntries(
    testResults
      .filter((result) => result.name.endsWith('.e2e-spec.ts') && here(result.name))
      .map((result) => [here(result.name), Number(((result.endTime - result.startTime) / 1000).toFixed(1))])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  writeFileSync(TABLE, `${JSON.stringify(table, null, 2)}\n`);
  process.stdout.write(
    `${Object.keys(table).length} e2e files' seconds written to ${relative(process.cwd(), TABLE)}\n`,
  );
}
