/**
 * The Bull Board dashboard at /queues, loaded on its first request: bull-board's server side, its adapters and lodash
 * are about 4 MB of heap that a worker would otherwise hold from its start, whether anyone opens the dashboard or not.
 */
import type { NextFunction, Request, Response, Router } from 'express';
import type { Queue } from 'bullmq';

export interface Dashboard {
  /** The handler mounted at /queues. */
  handle(req: Request, res: Response, next: NextFunction): void;
  /** Show these queues (now, or when the dashboard is first asked for). */
  setQueues(queues: readonly Queue[]): void;
}

export function lazyDashboard(initial: readonly Queue[], readOnly: boolean): Dashboard {
  let queues = initial;
  let built: Promise<{ router: Router; replace(queues: readonly Queue[]): void }> | undefined;

  const build = async () => {
    const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/express'),
    ]);
    const boardAdapter = new ExpressAdapter();
    boardAdapter.setBasePath('/queues');
    // Without a token nothing may change state: the dashboard shows no buttons for it either.
    const adapter = (q: Queue) => new BullMQAdapter(q, { readOnlyMode: readOnly });
    const board = createBullBoard({
      queues: queues.map(adapter), // the queues set by then
      // @bull-board/express pins its own copy of @bull-board/api: same shape, distinct private declarations.
      serverAdapter: boardAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
      options: {
        uiConfig: { boardTitle: 'rfq-sync', miscLinks: [{ text: 'Where is my requisition?', url: '/trace' }] },
      },
    });
    return {
      router: boardAdapter.getRouter() as Router,
      replace: (qs: readonly Queue[]) => board.replaceQueues(qs.map(adapter)),
    };
  };

  return {
    handle(req, res, next) {
      built ??= build().catch((err: unknown) => {
        built = undefined; // asked again, loaded again
        throw err;
      });
      built.then((b) => b.router(req, res, next), next);
    },
    setQueues(qs) {
      queues = qs;
      void built?.then((b) => b.replace(qs)).catch(() => undefined); // a failed load is reported on its request
    },
  };
}
