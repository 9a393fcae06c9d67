/**
 * content's audit trail (CONTRACT §8.1): a story category created, renamed and deleted (one entry
 * each, only the changed fields), and a refused rename (another category's name) recording nothing.
 */
import { randomUUID } from 'node:crypto';
import { recordedEntries, sealedEntries } from '@media/testing';
import { content, system, tokenWith } from './support';

const db = () => system().databases.content;
const BASE = '/api/v1/story-categories';

describe('the audit trail of content', () => {
  it('records a story category created, updated and deleted, naming the caller', async () => {
    const sub = randomUUID();
    const token = tokenWith(['story-categories:read', 'story-categories:write'], sub);
    const tag = randomUUID().slice(0, 8);
    const created = await content(BASE, { token, json: { name: `Audit ${tag}`, description: 'd' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const renamed = await content(`${BASE}/${id}`, {
      method: 'PATCH',
      token,
      json: { name: `Audited ${tag}` },
    });
    expect(renamed.status).toBe(200);
    const other = await content(BASE, { token, json: { name: `Other ${tag}` } });
    const clash = await content(`${BASE}/${id}`, { method: 'PATCH', token, json: { name: `Other ${tag}` } });
    expect(clash.status).toBe(409);
    expect(other.status).toBe(201);
    const removed = await content(`${BASE}/${id}`, { method: 'DELETE', token });
    expect(removed.status).toBe(204);

    const [create, update, deletion] = await sealedEntries(db(), { type: 'story_category', id }, 3);
    expect(create).toMatchObject({
      app: 'content',
      action: 'story_category.created',
      actor: { type: 'user', id: sub },
      changes: { name: [null, `Audit ${tag}`], description: [null, 'd'] },
    });
    expect(update).toMatchObject({
      action: 'story_category.updated',
      changes: { name: [`Audit ${tag}`, `Audited ${tag}`] },
    });
    expect(Object.keys(update.changes)).toEqual(['name']);
    expect(deletion).toMatchObject({
      action: 'story_category.deleted',
      actor: { type: 'user', id: sub },
      changes: { name: [`Audited ${tag}`, null], description: ['d', null] },
    });
    expect(await recordedEntries(db(), id)).toBe(3);
  });
});
