export * from './apps';
export * from './errors';
export * from './rpc';
export * from './acl';
export * from './documents';
export * from './assignment';
export * from './notifications';
export * from './events';
