import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A command block of docs/walkthrough.md and, when it is a request, the answer shown after it. */
export interface Step {
  /** Line of the block in the file, for messages. */
  line: number;
  script: string;
  expected?: { status: number; body?: unknown };
}

/**
 * The page's command blocks in order: a `bash` block followed directly by a `response` block is a
 * request (status line, then the JSON shown); any other `bash` block sets variables for later ones.
 */
export function parseWalkthrough(markdown: string): Step[] {
  const blocks = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1],
    text: m[2],
    line: markdown.slice(0, m.index).split('\n').length,
  }));
  const steps: Step[] = [];
  for (const [i, block] of blocks.entries()) {
    if (block.lang !== 'bash') continue;
    const next = blocks[i + 1];
    const step: Step = { line: block.line, script: block.text };
    if (next?.lang === 'response') {
      const [first, ...rest] = next.text.split('\n');
      const status = /^(\d{3})\b/.exec(first)?.[1];
      if (!status) throw new Error(`docs/walkthrough.md:${next.line}: a response starts with its status`);
      const json = rest.join('\n').trim();
      step.expected = { status: Number(status), body: json ? (JSON.parse(json) as unknown) : undefined };
    }
    steps.push(step);
  }
  return steps;
}

/** Where `actual` differs from what the page shows: `"…"` is any value, objects and lists show a part. */
export function differences(shown: unknown, actual: unknown, at = '$'): string[] {
  if (shown === '…') return actual === undefined ? [`${at}: missing`] : [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: expected a list, got ${JSON.stringify(actual)}`];
    if (actual.length < shown.length)
      return [`${at}: ${actual.length} items, the page shows ${shown.length}`];
    return shown.flatMap((item, i) => differences(item, actual[i], `${at}[${i}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    return Object.entries(shown).flatMap(([key, value]) =>
      key in actual
        ? differences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`)
        : [`${at}.${key}: missing`],
    );
  }
  return shown === actual
    ? []
    : [`${at}: the page shows ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}

/**
 * One bash process for the whole page, so variables set by a block reach the later ones. A
 * request block runs with `curl` wrapped to report the status on stderr, out of its output.
 */
export class Shell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private waiting?: () => void;

  constructor(env: Record<string, string>) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { env: { ...process.env, ...env } });
    this.bash.stdout.on('data', (chunk: Buffer) => {
      this.out += chunk.toString();
      this.waiting?.();
    });
    this.bash.stderr.on('data', (chunk: Buffer) => {
      this.err += chunk.toString();
      this.waiting?.();
    });
  }

  async run(step: Step): Promise<{ stdout: string; stderr: string; status?: number; exit: number }> {
    this.out = '';
    this.err = '';
    const wrap = step.expected
      ? `curl() { command curl -w '%{stderr}\\n@@status=%{http_code}\\n' "$@"; }\n`
      : '';
    this.bash.stdin.write(
      `${wrap}${step.script}\n__exit=$?\nunset -f curl\nprintf '\\n@@done=%s\\n' "$__exit"\nprintf '\\n@@done\\n' >&2\n`,
    );
    await new Promise<void>((resolve) => {
      const check = () => {
        if (/\n@@done=\d+\n/.test(this.out) && this.err.includes('\n@@done\n')) {
          this.waiting = undefined;
          resolve();
        }
      };
      this.waiting = check;
      check();
    });
    const exit = Number(/\n@@done=(\d+)\n/.exec(this.out)![1]);
    const statusMatch = /@@status=(\d{3})/.exec(this.err);
    return {
      stdout: this.out.replace(/\n@@done=\d+\n$/, ''),
      stderr: this.err.replace(/\n?@@status=\d{3}\n/g, '').replace(/\n@@done\n$/, ''),
      status: statusMatch ? Number(statusMatch[1]) : undefined,
      exit,
    };
  }

  close() {
    this.bash.stdin.end();
  }
}
