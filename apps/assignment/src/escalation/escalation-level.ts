/**
 * The highest `ESCALATION_MAX_LEVEL` accepted (the level is an `int` column). The level itself is
 * computed by the escalation job's SQL (escalator.service.ts) and checked against a controlled
 * clock in test/escalation.int-spec.ts.
 */
export const MAX_LEVEL = 1_000_000;
