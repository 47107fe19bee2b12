#!/usr/bin/env node
/**
 * rfq-sync command line (the commands are in app/cli.ts), started with Node's compile cache on (app/compile-cache.ts).
 */
import { useCompileCache } from '../app/compile-cache.ts';

useCompileCache();
await import('../app/cli.ts');
