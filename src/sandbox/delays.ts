/**
 * The sandbox's waits (injected latency, stalled answers), tracked so stop() can cancel them instead of keeping
 * the process alive.
 */

export class Delays {
  private readonly timers = new Set<NodeJS.Timeout>();

  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  cancelAll(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
