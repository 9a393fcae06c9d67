import { mentionIssues } from './room-membership';

describe('mentionIssues', () => {
  const a = '0a6f1c1e-6a53-4c4e-9c43-4c1d3b3f0001';
  const b = '0a6f1c1e-6a53-4c4e-9c43-4c1d3b3f0002';
  const stranger = '0a6f1c1e-6a53-4c4e-9c43-4c1d3b3f0009';

  it('locates every mention of a non-member at its own index', () => {
    const issues = mentionIssues([a, stranger, b, stranger], new Set([a, b]));
    expect(issues.map((i) => i.loc)).toEqual([
      ['body', 'mentions', '1'],
      ['body', 'mentions', '3'],
    ]);
    expect(issues[0]).toMatchObject({ type: 'value_error' });
  });

  it('compares ids case-insensitively and accepts none', () => {
    expect(mentionIssues([a.toUpperCase()], new Set([a]))).toEqual([]);
    expect(mentionIssues([], new Set())).toEqual([]);
  });
});
