import { linkTarget } from './link-target';

describe('linkTarget', () => {
  it('leads to the task, the room, the invitations or the inbox', () => {
    expect(linkTarget('assignment.task.claimed', { task_id: 't1' })).toBe('/assignment/api/v1/tasks/t1');
    expect(linkTarget('chat.message.created', { room_id: 'r1' })).toBe('/api/v1/chat/rooms/r1/messages');
    expect(linkTarget('acl.correspondent.invited', {})).toBe('/acl/api/v1/auth/correspondents/invite');
    expect(linkTarget('documents.document.deleted', { document_id: 'd' })).toBe('/api/v1/notifications');
  });

  it("prefers the sender's link and prefixes the public origin to a path", () => {
    expect(linkTarget('x', { link: '/content/api/v1/lineup/1' }, 'https://media.example/')).toBe(
      'https://media.example/content/api/v1/lineup/1',
    );
    expect(linkTarget('x', { link: 'https://elsewhere.example/a' }, 'https://media.example')).toBe(
      'https://elsewhere.example/a',
    );
    expect(linkTarget('x', { task_id: 'a/b' }, 'https://media.example')).toBe(
      'https://media.example/assignment/api/v1/tasks/a%2Fb',
    );
  });
});
