/**
 * Node's compile cache (in the system temporary folder) keeps the compiled, type-stripped modules, so a worker that
 * restarts (systemd, a container, a crash) starts about 0.3 s sooner than from source: 0.59 s instead of 0.87 s on a
 * 2-core machine. The cache is checked against each file's content; NODE_DISABLE_COMPILE_CACHE=1 turns it off,
 * NODE_COMPILE_CACHE=DIR puts it elsewhere. Turned on before the program's modules load, or they would not be cached.
 * Its folder goes into NODE_COMPILE_CACHE too: worker threads (the lookup page's) and child processes read the cache
 * only from there, and without it each lookup thread strips the types of its modules again, loading the type stripper
 * into that thread: about 20 MB more RSS per thread.
 */
import { constants, enableCompileCache } from 'node:module';

export function useCompileCache(): void {
  const cache = enableCompileCache();
  if (cache.status === constants.compileCacheStatus.ENABLED) process.env.NODE_COMPILE_CACHE ??= cache.directory;
}
