import type { ApiClient } from '@media/client';

export const DAY = 86_400_000;
export const iso = (d: Date) => d.toISOString();
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const money = (n: number) => n.toFixed(2);

/** What the seeder made and what it found already there, per kind. */
export class Report {
  readonly rows = new Map<string, { made: number; found: number }>();
  made(kind: string, n = 1) {
    this.row(kind).made += n;
  }
  found(kind: string, n = 1) {
    this.row(kind).found += n;
  }
  private row(kind: string) {
    let row = this.rows.get(kind);
    if (!row) this.rows.set(kind, (row = { made: 0, found: 0 }));
    return row;
  }
  get madeTotal() {
    return [...this.rows.values()].reduce((n, r) => n + r.made, 0);
  }
}

/** One run of the seeder: where, when (the month it fills), what it reports, the admin's session. */
export interface Seeding {
  baseUrl: string;
  now: Date;
  year: number;
  month: number;
  /** The first and the last day of the month. */
  first: Date;
  last: Date;
  report: Report;
  log: (line: string) => void;
  root: ApiClient;
}

/** The demo's groups and users (by email), and sessions of the users who make the rest. */
export interface People {
  groups: Map<string, string>;
  users: Map<string, string>;
  /** A demo user's id by key (`editor`, `bm1`). */
  id: (key: string) => string;
  admin: ApiClient;
  editor: ApiClient;
  sales: ApiClient;
  finance: ApiClient;
}
