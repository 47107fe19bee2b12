/** Peak resident memory while an async step runs, sampled every few ms (process.memoryUsage().rss). */
export async function withPeakRss<T>(
  fn: () => Promise<T>,
  everyMs = 10,
): Promise<{ result: PromiseSettledResult<T>; baseRss: number; peakRss: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, everyMs);
  try {
    const [result] = await Promise.allSettled([fn()]);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return { result: result!, baseRss, peakRss };
  } finally {
    clearInterval(timer);
  }
}

export const MB = 1024 * 1024;
