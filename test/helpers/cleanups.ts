/** Clean-ups after each test, for harnesses and tests that start things themselves. */
import { afterEach } from 'vitest';

/**
 * Clean-ups run after each test, the last registered first (a context closes before its folder is removed), each
 * once; what a test started part-way is cleaned up too.
 */
export function useCleanups(): { push(...fns: Array<() => Promise<unknown> | unknown>): void } {
  let fns: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    const now = fns.reverse();
    fns = [];
    for (const fn of now) await fn();
  });
  return { push: (...more) => void fns.push(...more) };
}
