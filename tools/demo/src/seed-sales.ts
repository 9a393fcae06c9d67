import { all, ok } from './api';
import { CLIENTS, COMMISSION_CATEGORIES, sequence } from './data';
import { DAY, iso, isoDate, money, type People, type Seeding } from './seeding';

/** Clients and two years of deals (commercial). */
export async function seedClientsAndDeals(s: Seeding, p: People): Promise<void> {
  const { now, year, report, log } = s;
  const { sales } = p;
  log('clients and deals');
  const random = sequence(2024);
  const clients = new Map<string, string>();
  for (const c of await all(
    (cursor) => sales.GET('/commercial/api/v1/clients', { params: { query: { cursor, page_size: 100 } } }),
    'list clients',
  )) {
    clients.set(c.name, c.id);
  }
  for (const [rank, [name, category]] of CLIENTS.entries()) {
    let clientId = clients.get(name);
    if (clientId) report.found('clients');
    else {
      clientId = (
        await ok(
          sales.POST('/commercial/api/v1/clients', { body: { name, category } }),
          `create client ${name}`,
        )
      ).id;
      clients.set(name, clientId);
      report.made('clients');
    }
    const deals = await ok(
      sales.GET('/commercial/api/v1/deals', { params: { query: { client_id: clientId, page_size: 1 } } }),
      `find deals of ${name}`,
    );
    if (deals.results.length > 0) {
      report.found('clients with deals');
      continue;
    }
    // Eight deals over the last two years, the last ones this year (before today).
    for (let i = 0; i < 8; i++) {
      const daysAgo =
        i < 3
          ? Math.floor(random() * Math.max(1, (now.getTime() - Date.UTC(year, 0, 1)) / DAY))
          : 60 + Math.floor(random() * 660);
      const status = i === 5 ? 'LOST' : i === 6 ? 'PENDING' : 'WON';
      const size = (10 - rank) * 4_000 + Math.floor(random() * 20_000);
      await ok(
        sales.POST('/commercial/api/v1/deals', {
          body: {
            client_id: clientId,
            contracted_revenue: money(size),
            contract_date: isoDate(new Date(now.getTime() - daysAgo * DAY)),
            status,
          },
        }),
        `create a deal of ${name}`,
      );
      report.made('deals');
    }
  }
}

/** Bookings in every status with lines and assets (inventory). */
export async function seedBookings(s: Seeding, p: People, documents: Map<string, string>): Promise<void> {
  const { first, last, report, log } = s;
  const { sales } = p;
  log('bookings');
  const bookings = new Set(
    (
      await all(
        (cursor) =>
          sales.GET('/inventory/api/v1/bookings', { params: { query: { cursor, page_size: 100 } } }),
        'list bookings',
      )
    ).map((b) => b.reference),
  );
  const statuses = [
    'CONFIRMED',
    'CONFIRMED',
    'DRAFT',
    'CONFIRMED',
    'CANCELLED',
    'CONFIRMED',
    'DRAFT',
    'CONFIRMED',
    'CANCELLED',
    'DRAFT',
  ] as const;
  const platforms = [
    ['TV', 'Prime time', 'Channel One'],
    ['RADIO', 'Drive time', 'City FM'],
    ['DIGITAL', 'Pre-roll', 'Web Live'],
  ] as const;
  for (const [i, [client]] of CLIENTS.entries()) {
    const reference = `DEMO-B-${String(i + 1).padStart(3, '0')}`;
    if (bookings.has(reference)) {
      report.found('bookings');
      continue;
    }
    const status = statuses[i];
    const lines = platforms.slice(0, 1 + (i % 3)).map(([platform, category, channel], j) => {
      const spots = 10 + ((i * 7 + j * 5) % 40);
      const rate = spots * (platform === 'TV' ? 1500 : platform === 'RADIO' ? 400 : 250);
      return {
        platform,
        category,
        channel,
        start_date: isoDate(first),
        end_date: isoDate(last),
        spots,
        rate_card_amount: money(rate),
        booked_amount: money(rate * (0.75 + ((i + j) % 4) * 0.05)),
      };
    });
    const booking = await ok(
      sales.POST('/inventory/api/v1/bookings', {
        body: {
          reference,
          client_name: client,
          agency: i % 2 ? 'Blue Door Media' : null,
          currency: 'USD',
          status: status === 'CANCELLED' ? 'DRAFT' : status,
          lines,
        },
      }),
      `create booking ${reference}`,
    );
    report.made('bookings');
    report.made('booking lines', booking.lines.length);
    for (const line of booking.lines) {
      const document_id =
        i === 0
          ? documents.get('northwind-spring-spot.txt')!
          : i === 1
            ? documents.get('contoso-launch-brief.txt')!
            : null;
      await ok(
        sales.POST('/inventory/api/v1/bookings/{order_id}/lines/{line_id}/assets', {
          params: { path: { order_id: booking.id, line_id: line.id } },
          body: {
            name: `${client} ${line.platform.toLowerCase()} creative`,
            document_id,
            notes: document_id ? 'Approved by the client' : 'Awaiting the creative',
          },
        }),
        `add an asset to ${reference}`,
      );
      report.made('line assets');
    }
    if (status === 'CANCELLED') {
      await ok(
        sales.PATCH('/inventory/api/v1/bookings/{order_id}', {
          params: { path: { order_id: booking.id } },
          body: { status: 'CANCELLED' },
        }),
        `cancel ${reference}`,
      );
    }
  }
}

/** Commission plans (payment). */
export async function seedCommissionPlans(s: Seeding, p: People): Promise<void> {
  const { report, log } = s;
  const { finance } = p;
  log('commissions');
  const plans = new Set(
    (
      await all(
        (cursor) =>
          finance.GET('/payment/api/v1/commissions/plans', { params: { query: { cursor, page_size: 100 } } }),
        'list plans',
      )
    ).map((p) => p.category),
  );
  for (const category of COMMISSION_CATEGORIES) {
    if (plans.has(category)) {
      report.found('commission plans');
      continue;
    }
    await ok(
      finance.POST('/payment/api/v1/commissions/plans', {
        body: {
          category,
          tiers: [
            { min_achievement_pct: '0', rate_pct: '1.5' },
            { min_achievement_pct: '80', rate_pct: '3' },
            { min_achievement_pct: '100', rate_pct: '5' },
            { min_achievement_pct: '120', rate_pct: '7.5' },
          ],
        },
      }),
      `create the ${category} plan`,
    );
    report.made('commission plans');
  }
}

/** Targets and collections of each BM for this year (payment). */
export async function seedTargetsAndCollections(s: Seeding, p: People): Promise<void> {
  const { now, year, month, report } = s;
  const { finance, id } = p;
  const bms = ['bm1', 'bm2', 'bm3'];
  for (const [b, bm] of bms.entries()) {
    for (const [c, category] of COMMISSION_CATEGORIES.entries()) {
      const bm_id = id(bm);
      const targets = await ok(
        finance.GET('/payment/api/v1/commissions/targets', {
          params: { query: { bm_id, category, year, page_size: 100 } },
        }),
        'list targets',
      );
      const targetOf = (m: number) => 40_000 + b * 10_000 + c * 15_000 + m * 500;
      const have = new Set(targets.results.map((t) => t.month));
      for (let m = 1; m <= 12; m++) {
        if (have.has(m)) {
          report.found('targets');
          continue;
        }
        await ok(
          finance.POST('/payment/api/v1/commissions/targets', {
            body: { bm_id, category, month: m, year, target_amount: money(targetOf(m)) },
          }),
          'set a target',
        );
        report.made('targets');
      }
      const collections = await ok(
        finance.GET('/payment/api/v1/collections', { params: { query: { bm_id, category, page_size: 1 } } }),
        'list collections',
      );
      if (collections.results.length > 0) {
        report.found('BMs with collections');
        continue;
      }
      // Two collections a month up to today; together 70% to 130% of the month's target.
      for (let m = 1; m <= month; m++) {
        const share = 0.7 + ((b * 3 + c * 5 + m) % 7) * 0.1;
        const lastDay = m === month ? now.getUTCDate() : new Date(Date.UTC(year, m, 0)).getUTCDate();
        for (const part of [0.45, 0.55]) {
          const day = Math.max(1, Math.round(lastDay * (part === 0.45 ? 0.3 : 1)));
          let at = new Date(Date.UTC(year, m - 1, day, 9 + b));
          if (at > now) at = new Date(now.getTime() - 60_000);
          await ok(
            finance.POST('/payment/api/v1/collections', {
              body: { bm_id, category, amount: money(targetOf(m) * share * part), collected_at: iso(at) },
            }),
            'record a collection',
          );
          report.made('collections');
        }
      }
    }
  }
}
