import { keepAllocatorToRunner } from './processes';

describe('keepAllocatorToRunner', () => {
  it("takes npm start's jemalloc out of what the runner's children inherit", () => {
    const env: NodeJS.ProcessEnv = {
      LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
      MALLOC_CONF: 'narenas:1',
      MALLOC_ARENA_MAX: '2',
      PATH: '/usr/bin',
    };
    keepAllocatorToRunner(env);
    expect(env).toEqual({ MALLOC_ARENA_MAX: '2', PATH: '/usr/bin' });
  });

  it('leaves a preload of anything else, and its settings, as they are', () => {
    const env: NodeJS.ProcessEnv = { LD_PRELOAD: '/opt/trace/libtrace.so', MALLOC_CONF: 'narenas:2' };
    keepAllocatorToRunner(env);
    expect(env).toEqual({ LD_PRELOAD: '/opt/trace/libtrace.so', MALLOC_CONF: 'narenas:2' });
  });
});
