import { isDatabaseUnavailable, isSessionLost } from './availability';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const queryFailed = (driverError: unknown) => Object.assign(new Error('query failed'), { driverError });

describe('isDatabaseUnavailable', () => {
  it.each(['57P01', '57P02', '57P03', '53300', '08006', '08001', '08003'])(
    'is true for SQLSTATE %s',
    (code) => {
      expect(isDatabaseUnavailable(queryFailed(pgError(code)))).toBe(true);
    },
  );

  it('is true for a refused connection, also when every address of localhost refused it', () => {
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED'))).toBe(true);
    const aggregate = Object.assign(new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]), {
      code: 'ECONNREFUSED',
    });
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
  });

  it('is true for a pool acquisition timeout and a lost connection', () => {
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(queryFailed(new Error('Connection terminated unexpectedly')))).toBe(true);
  });

  it('is false for errors of the query itself', () => {
    expect(isDatabaseUnavailable(queryFailed(pgError('23505')))).toBe(false);
    expect(isDatabaseUnavailable(queryFailed(pgError('57014')))).toBe(false); // statement timeout
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('isSessionLost', () => {
  it('is true for a terminated session, false for a refused connection or a bad query', () => {
    expect(isSessionLost(queryFailed(pgError('57P01')))).toBe(true);
    expect(isSessionLost(queryFailed(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isSessionLost(pgError('ECONNREFUSED'))).toBe(false);
    expect(isSessionLost(queryFailed(pgError('23505')))).toBe(false);
  });
});
