/**
 * The header of an RFQ as the requisition record keeps it (title, due date, required date, description, as posted or
 * last pushed), and what a re-export changes in it. Pure; pushing the changes is creation's (header-push.ts there).
 */
import type { CreateRfqRequest } from '../sourcing/index.ts';

export const HEADER_FIELDS = ['title', 'due_date', 'required_date', 'description'] as const;
export type HeaderField = (typeof HEADER_FIELDS)[number];
/** The header as posted: the create request's header fields, absent ones as null. */
export type PostedHeader = Record<HeaderField, string | null>;

export interface HeaderChange {
  field: HeaderField;
  was: string | null;
  now: string | null;
}

export interface HeaderOutcome {
  changes: HeaderChange[];
  /** True when the edit call took the changes; false when they are only reported (see `reason`). */
  pushed: boolean;
  reason?: string;
}

export function headerOf(body: Pick<CreateRfqRequest, HeaderField>): PostedHeader {
  return {
    title: body.title,
    due_date: body.due_date,
    required_date: body.required_date ?? null,
    description: body.description ?? null,
  };
}

export function headerChanges(was: PostedHeader, now: PostedHeader): HeaderChange[] {
  return HEADER_FIELDS.flatMap((field) =>
    was[field] === now[field] ? [] : [{ field, was: was[field], now: now[field] }],
  );
}
