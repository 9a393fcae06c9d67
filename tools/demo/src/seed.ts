import { login } from './api';
import { seedRooms, seedPreferences } from './seed-chat';
import { seedDocuments, seedLineups, seedStoryCategories } from './seed-content';
import { seedCorrespondents, seedPeople } from './seed-people';
import {
  seedBookings,
  seedClientsAndDeals,
  seedCommissionPlans,
  seedTargetsAndCollections,
} from './seed-sales';
import { seedTasks } from './seed-tasks';
import { Report, type Seeding } from './seeding';

export { Report } from './seeding';

export interface SeedOptions {
  baseUrl: string;
  admin: { email: string; password: string };
  now?: Date;
  log?: (line: string) => void;
}

/**
 * Fills a running system with the demo data set, through the public API. Every step first
 * looks for what it would make (by name, email, reference or a derived id), so a second run
 * makes nothing.
 */
export async function seed(options: SeedOptions): Promise<Report> {
  const now = options.now ?? new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const s: Seeding = {
    baseUrl: options.baseUrl,
    now,
    year,
    month,
    first: new Date(Date.UTC(year, month - 1, 1)),
    last: new Date(Date.UTC(year, month, 0)),
    report: new Report(),
    log: options.log ?? (() => undefined),
    root: await login(options.baseUrl, options.admin.email, options.admin.password),
  };
  const people = await seedPeople(s);
  await seedCorrespondents(s, people);
  await seedStoryCategories(s, people);
  const documents = await seedDocuments(s, people);
  await seedLineups(s, people, documents);
  await seedTasks(s, people);
  await seedClientsAndDeals(s, people);
  await seedBookings(s, people, documents);
  await seedCommissionPlans(s, people);
  await seedTargetsAndCollections(s, people);
  await seedRooms(s, people);
  await seedPreferences(s, people);
  return s.report;
}
