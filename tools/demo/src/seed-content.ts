import { all, ok } from './api';
import { MEDIA, SLOT_TIMES, STORY_CATEGORIES } from './data';
import { DAY, isoDate, type People, type Seeding } from './seeding';

/** Story categories (content). */
export async function seedStoryCategories(s: Seeding, p: People): Promise<void> {
  const { report, log } = s;
  const { editor } = p;
  log('story categories');
  const categories = new Set(
    (
      await all(
        (cursor) =>
          editor.GET('/content/api/v1/story-categories', { params: { query: { cursor, page_size: 100 } } }),
        'list story categories',
      )
    ).map((c) => c.name.toLowerCase()),
  );
  for (const [name, description] of STORY_CATEGORIES) {
    if (categories.has(name.toLowerCase())) {
      report.found('story categories');
      continue;
    }
    await ok(
      editor.POST('/content/api/v1/story-categories', { body: { name, description } }),
      `create category ${name}`,
    );
    report.made('story categories');
  }
}

/** Documents (uploaded by the demo admin, whose list the walkthrough reads): their ids by file name. */
export async function seedDocuments(s: Seeding, p: People): Promise<Map<string, string>> {
  const { year, month, report, log } = s;
  const { admin } = p;
  log('documents');
  const documents = new Map<string, string>();
  for (const d of await all(
    (cursor) => admin.GET('/documents/api/v1/documents', { params: { query: { cursor, page_size: 100 } } }),
    'list documents',
  )) {
    documents.set(d.filename, d.id);
  }
  const files: [string, string, string][] = [
    ...MEDIA.map(({ medium, channel }): [string, string, string] => [
      `rundown-${medium.toLowerCase()}.txt`,
      'text/plain',
      `${channel} rundown for ${year}-${String(month).padStart(2, '0')}\n`,
    ]),
    ['northwind-spring-spot.txt', 'text/plain', 'Script: Northwind Foods, 30 s spot\n'],
    ['contoso-launch-brief.txt', 'text/plain', 'Brief: Contoso Motors launch campaign\n'],
  ];
  for (const [filename, type, text] of files) {
    if (documents.has(filename)) {
      report.found('documents');
      continue;
    }
    const form = new FormData();
    form.append('file', new Blob([text], { type }), filename);
    const doc = await ok(
      admin.POST('/documents/api/v1/documents', {
        body: form as never,
        bodySerializer: (b: unknown) => b as FormData,
      }),
      `upload ${filename}`,
    );
    documents.set(filename, doc.id);
    report.made('documents');
  }
  return documents;
}

/** A month of lineups per medium, with slots every day and documents on the first ones. */
export async function seedLineups(s: Seeding, p: People, documents: Map<string, string>): Promise<void> {
  const { year, month, first, last, report, log } = s;
  const { editor } = p;
  log('lineups');
  for (const { medium, channel, shows } of MEDIA) {
    const existing = await ok(
      editor.GET('/content/api/v1/lineup', { params: { query: { medium, channel, month, year } } }),
      `find the ${medium} lineup`,
    );
    if (existing.results.length > 0) {
      report.found('lineups');
      continue;
    }
    const slots = [];
    for (let d = first.getTime(); d <= last.getTime(); d += DAY) {
      for (const [i, start_time] of SLOT_TIMES.entries()) {
        slots.push({
          air_date: isoDate(new Date(d)),
          start_time,
          duration_seconds: i === 2 ? 3600 : 1800,
          title: shows[i],
        });
      }
    }
    const schedule = await ok(
      editor.POST('/content/api/v1/lineup', {
        body: {
          medium,
          channel,
          month,
          year,
          title: `${channel} ${first.toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${year}`,
          effective_from: isoDate(first),
          effective_to: isoDate(last),
          metadata: { source: 'demo', timezone: 'UTC' },
          slots,
        },
      }),
      `create the ${medium} lineup`,
    );
    report.made('lineups');
    report.made('slots', slots.length);
    const page = await ok(
      editor.GET('/content/api/v1/lineup/{id}/slots', {
        params: { path: { id: schedule.id }, query: { page_size: 3 } },
      }),
      `list the ${medium} slots`,
    );
    for (const slot of page.results) {
      await ok(
        editor.POST('/content/api/v1/lineup/slots/{slot_id}/assets', {
          params: { path: { slot_id: slot.id } },
          body: { document_id: documents.get(`rundown-${medium.toLowerCase()}.txt`)! },
        }),
        'attach a rundown',
      );
      report.made('slot assets');
    }
  }
}
