import { differences, parseWalkthrough } from './walkthrough';

describe('the walkthrough checker', () => {
  it('reads requests (a bash block then a response block) and setup blocks', () => {
    const page = [
      '```bash',
      'X=1',
      '```',
      'text',
      '```bash',
      'curl -s "$API/x"',
      '```',
      '',
      '```response',
      '201 Created',
      '{ "a": 1 }',
      '```',
      '```bash',
      'curl -s -X DELETE "$API/x"',
      '```',
      '```response',
      '204 No Content',
      '```',
    ].join('\n');
    expect(parseWalkthrough(page)).toEqual([
      { line: 1, script: 'X=1\n' },
      { line: 5, script: 'curl -s "$API/x"\n', expected: { status: 201, body: { a: 1 } } },
      { line: 13, script: 'curl -s -X DELETE "$API/x"\n', expected: { status: 204, body: undefined } },
    ]);
  });

  it('compares only the fields shown, "…" standing for any value', () => {
    const shown = { a: '…', b: [{ c: 1 }], d: { e: 'x' } };
    expect(differences(shown, { a: 5, b: [{ c: 1, z: 2 }, { c: 9 }], d: { e: 'x', f: 0 }, g: 1 })).toEqual(
      [],
    );
    expect(differences(shown, { b: [{ c: 2 }], d: { e: 'y' } })).toEqual([
      '$.a: missing',
      '$.b[0].c: the page shows 1, got 2',
      '$.d.e: the page shows "x", got "y"',
    ]);
    expect(differences([1, 2], [1])).toEqual(['$: 1 items, the page shows 2']);
  });
});
