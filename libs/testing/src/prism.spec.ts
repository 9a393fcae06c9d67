import { parsePrismLog } from './prism';

describe("parsePrismLog (Prism's log as it prints it)", () => {
  it('groups the violations under the request they were reported for, with the status answered', () => {
    const log = [
      '[10:24:56 AM] › [CLI] ▶  start     Prism is listening on http://127.0.0.1:27005',
      '[10:24:56 AM] › [HTTP SERVER] get /api/v1/notifications/settings ℹ  info      Request received',
      '[10:24:56 AM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/notifications/settings has returned 200',
      '[10:24:56 AM] ›     [VALIDATOR] ✖  error     Violation: response.body.data.quiet_hours Response body property data.quiet_hours must be object',
      '[10:24:57 AM] › [HTTP SERVER] post /acl/api/v1/users ℹ  info      Request received',
      '[10:24:57 AM] ›     [VALIDATOR] ✖  error     Violation: request.body.email Request body must have required property',
      '[10:24:57 AM] ›     [PROXY] ℹ  info      The upstream call to /acl/api/v1/users has returned 422',
    ].join('\n');
    expect(parsePrismLog(log)).toEqual([
      {
        request: 'GET /api/v1/notifications/settings',
        status: 200,
        violations: ['response.body.data.quiet_hours Response body property data.quiet_hours must be object'],
      },
      {
        request: 'POST /acl/api/v1/users',
        status: 422,
        violations: ['request.body.email Request body must have required property'],
      },
    ]);
  });
});
