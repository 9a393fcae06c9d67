export * from './clients';
export * from './databases';
export * from './env';
export * from './http';
export * from './ports';
export * from './rpc';
export * from './stack';
export * from './tokens';
