/** Story categories: their list and their management (docs/api/contract.md §3 byte order, §4.6). */
import { randomUUID } from 'node:crypto';
import { content, contentDb, follow, tokenWith } from './support';

const reader = () => tokenWith(['story-categories:read']);
const writer = () => tokenWith(['story-categories:read', 'story-categories:write']);
const BASE = '/api/v1/story-categories';

describe('story categories', () => {
  const tag = randomUUID().slice(0, 6);

  it('creates one (201) with every field present, description null when left out', async () => {
    const res = await content(BASE, { token: writer(), json: { name: `  Politics ${tag}  ` } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: `Politics ${tag}`,
      description: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('refuses a name that differs only in case with 409', async () => {
    expect((await content(BASE, { token: writer(), json: { name: `Sport ${tag}` } })).status).toBe(201);
    const res = await content(BASE, { token: writer(), json: { name: `SPORT ${tag}` } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('story_category_name_taken');
  });

  it('lets exactly one of several racing creates of one name (in different cases) win', async () => {
    const names = ['race', 'RACE', 'Race', 'rAcE', 'racE'].map((n) => `${n} ${tag}`);
    const results = await Promise.all(
      names.map((name) => content(BASE, { token: writer(), json: { name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  const unique = (length: number) => `${randomUUID().slice(0, 6)}${'n'.repeat(length - 6)}`;
  it.each([
    ['a name of 100 characters', 201, () => ({ name: unique(100) })],
    ['a name of 101 characters', 422, () => ({ name: unique(101) })],
    ['an empty name', 422, () => ({ name: '' })],
    ['a blank name', 422, () => ({ name: '   ' })],
    ['a description of 2000 characters', 201, () => ({ name: unique(10), description: 'd'.repeat(2000) })],
    ['a description of 2001 characters', 422, () => ({ name: unique(10), description: 'd'.repeat(2001) })],
    ['a name with NUL', 422, () => ({ name: 'a\u0000b' })],
    ['a name with a lone surrogate', 422, () => ({ name: 'a\ud800b' })],
    ['an unknown field', 422, () => ({ name: unique(10), colour: 'red' })],
  ])('answers %s with %s', async (_label, status, fields) => {
    const res = await content(BASE, { token: writer(), json: fields() });
    expect(res.status).toBe(status);
    if (status === 422) expect(res.body.detail).toHaveLength(1);
  });

  it('reports a missing name at ["body","name"]', async () => {
    const res = await content(BASE, { token: writer(), json: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }]);
  });

  it('lists by name in byte order, then id, paged one by one forwards and back', async () => {
    const p = `zz${tag}`;
    const names = [`${p} alpha`, `${p} Alpha beta`, `${p} ALPHA-1`, `${p} b`, `${p} Äpfel`, `${p} alphabet`];
    for (const name of names)
      expect((await content(BASE, { token: writer(), json: { name } })).status).toBe(201);
    const seen: string[] = [];
    let res = await content(`${BASE}?page_size=1`, { token: reader() });
    expect(res.body.previous).toBeNull();
    const pages: string[] = [];
    for (;;) {
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(1);
      seen.push(res.body.results[0].name);
      pages.push(res.body.results[0].id);
      if (!res.body.next) break;
      res = await follow(res.body.next, reader());
    }
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    const sorted = [...seen].sort((a, b) => Buffer.compare(bytes(a), bytes(b)));
    expect(seen).toEqual(sorted);
    expect(seen.filter((n) => n.startsWith(p))).toEqual([
      `${p} ALPHA-1`,
      `${p} Alpha beta`,
      `${p} alpha`,
      `${p} alphabet`,
      `${p} b`,
      `${p} Äpfel`,
    ]);
    // and back with `previous`, to the first page
    const back: string[] = [res.body.results[0].id];
    while (res.body.previous) {
      res = await follow(res.body.previous, reader());
      back.unshift(res.body.results[0].id);
    }
    expect(back).toEqual(pages);
    const count = await contentDb<{ n: number }>(`SELECT count(*)::int AS n FROM story_categories`);
    expect(seen).toHaveLength(count[0].n);
  });

  it('refuses page_size 0 and 101, and a tampered cursor, with 422', async () => {
    for (const q of ['page_size=0', 'page_size=101', 'cursor=abc.def']) {
      const res = await content(`${BASE}?${q}`, { token: reader() });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('query');
    }
    expect((await content(`${BASE}?page_size=100`, { token: reader() })).status).toBe(200);
  });

  it('updates with PATCH and PUT, keeping the 409 for another category’s name', async () => {
    const a = (await content(BASE, { token: writer(), json: { name: `Culture ${tag}`, description: 'x' } }))
      .body;
    await content(BASE, { token: writer(), json: { name: `Music ${tag}` } });
    const renamed = await content(`${BASE}/${a.id}`, {
      method: 'PATCH',
      token: writer(),
      json: { name: `CULTURE ${tag}` },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: `CULTURE ${tag}`, description: 'x' });
    const clash = await content(`${BASE}/${a.id}`, {
      method: 'PATCH',
      token: writer(),
      json: { name: `music ${tag}` },
    });
    expect(clash.status).toBe(409);
    const put = await content(`${BASE}/${a.id}`, {
      method: 'PUT',
      token: writer(),
      json: { name: `Arts ${tag}` },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: `Arts ${tag}`, description: null });
    expect((await content(`${BASE}/${a.id}`, { token: reader() })).body.name).toBe(`Arts ${tag}`);
  });

  it('deletes (204), then answers 404', async () => {
    const a = (await content(BASE, { token: writer(), json: { name: `Gone ${tag}` } })).body;
    expect((await content(`${BASE}/${a.id}`, { method: 'DELETE', token: writer() })).status).toBe(204);
    expect((await content(`${BASE}/${a.id}`, { method: 'DELETE', token: writer() })).status).toBe(404);
    expect((await content(`${BASE}/${a.id}`, { token: reader() })).status).toBe(404);
    expect((await content(`${BASE}/not-a-uuid`, { token: reader() })).body.detail[0].loc).toEqual([
      'path',
      'id',
    ]);
  });

  it('needs story-categories:read to list and :write to change (403), and a token (401)', async () => {
    expect((await content(BASE)).status).toBe(401);
    expect((await content(BASE, { token: tokenWith(['lineup:read']) })).status).toBe(403);
    expect((await content(BASE, { token: reader(), json: { name: `No ${tag}` } })).status).toBe(403);
    expect((await content(BASE, { token: tokenWith(['*']), json: { name: `Star ${tag}` } })).status).toBe(
      201,
    );
  });
});
