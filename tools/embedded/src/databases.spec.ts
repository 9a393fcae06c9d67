import {
  databaseName,
  databaseOf,
  databasePrefix,
  perAppDatabaseUrls,
  redactUrl,
  withDatabase,
} from './databases';

describe('per-app database URLs', () => {
  it('names one database per app, dashes as underscores', () => {
    expect(databaseName('acl')).toBe('media_acl');
    expect(databaseName('chat-notifications')).toBe('media_chat_notifications');
    expect(databaseName('content', 'shop')).toBe('shop_content');
  });

  it('replaces only the database of a DATABASE_URL, keeping user, password, host, port and options', () => {
    expect(withDatabase('postgres://u:p%40ss@db.internal:6543/postgres?sslmode=require', 'media_acl')).toBe(
      'postgres://u:p%40ss@db.internal:6543/media_acl?sslmode=require',
    );
    expect(withDatabase('postgresql://localhost', 'media_acl')).toBe('postgresql://localhost/media_acl');
  });

  it('takes the prefix from the database DATABASE_URL names, media for none or a maintenance database', () => {
    expect(databasePrefix('postgres://u@h/shop')).toBe('shop');
    expect(databasePrefix('postgres://u@h/postgres')).toBe('media');
    expect(databasePrefix('postgres://u@h')).toBe('media');
    expect(databaseOf('postgres://u@h/a%20b')).toBe('a b');
  });

  it('derives a URL for every app', () => {
    const urls = perAppDatabaseUrls('postgres://u:p@h:5432/shop', ['acl', 'chat-notifications'], 'shop');
    expect(urls).toEqual({
      acl: 'postgres://u:p@h:5432/shop_acl',
      'chat-notifications': 'postgres://u:p@h:5432/shop_chat_notifications',
    });
  });

  it('hides the password in logs', () => {
    expect(redactUrl('postgres://u:secret@h:5432/d')).toBe('postgres://u:***@h:5432/d');
    expect(redactUrl('postgres://u@h/d')).toBe('postgres://u@h/d');
  });
});
