/**
 * What the client's endpoint functions share: the transport they send through, the logger and the list settings,
 * plus the two checks every endpoint makes (a valid RFQ id out, a schema-breaking answer in).
 */
import type { z } from 'zod';
import { InvalidRequestError, InvalidResponseError, type Logger } from '../../core/index.ts';
import { firstIssue } from '../schemas.ts';
import { paginate, type FetchedPage, type Transport } from '../transport/index.ts';

export interface ClientContext {
  transport: Transport;
  logger: Logger;
  maxPages: number;
  pageConcurrency: number;
  /** Shared across list walks so a poller warns about a foreign link origin once, not every minute. */
  originWarning: { given: boolean };
}

export function checkRfqId(operation: string, rfqId: number): void {
  if (!Number.isSafeInteger(rfqId) || rfqId <= 0) throw new InvalidRequestError(operation, `invalid RFQ id ${rfqId}`);
}

/** An answer that breaks its schema, named by its first issue. */
export function invalidResponse(operation: string, err: z.ZodError, rfqId?: number): InvalidResponseError {
  const { field, reason } = firstIssue(err);
  return new InvalidResponseError({ operation, field, reason, rfqId });
}

/** The pages of one listing through the transport's pagination, with this client's settings. */
export function pagesOf<T>(
  c: ClientContext,
  operation: string,
  isEmpty: (items: T) => boolean,
  fetchPage: (page: number) => Promise<FetchedPage<T>>,
): AsyncGenerator<{ page: number; items: T }> {
  return paginate<T>({
    operation,
    origin: c.transport.origin,
    maxPages: c.maxPages,
    concurrency: c.pageConcurrency,
    logger: c.logger,
    isEmpty,
    originWarning: c.originWarning,
    fetchPage,
  });
}
