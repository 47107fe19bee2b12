/**
 * What a channel kind is: the options it takes in NOTIFY_CHANNELS (a zod schema, checked at start, secrets read from
 * their files and handed to the log scrubber), and how it sends one message. One file per kind in channels/, one
 * line in channels/index.ts; the export name there is the `type` of the channel in the settings.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { registerSecret, type Logger } from '../core/index.ts';
import type { OutgoingMessage } from './message.ts';

export interface Channel {
  /**
   * Send one message to the route's recipients (e-mail) or the channel's URL; throws NotifyError when it did not.
   * `signal` aborts it (its deadline passed, the worker stops): the send lets go of its connection at once.
   */
  send(m: OutgoingMessage, to: readonly string[] | undefined, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export interface ChannelKind<O = unknown> {
  /** The options of a channel of this kind (the settings entry without `type`). */
  readonly options: z.ZodType<O>;
  /** Routes through it must name `to` (e-mail). */
  readonly needsRecipients: boolean;
  /** Largest total of attachments per message, bytes (0: it never attaches; the path is shown instead). */
  attachMaxBytes(o: O): number;
  /** The whole of one send (connect, hand-over, answer) ends within this, ms: its `timeout_ms` (send-deadline.ts). */
  timeoutMs(o: O): number;
  create(o: O, env: { name: string; logger: Logger }): Channel;
}

export function defineChannelKind<O>(kind: ChannelKind<O>): ChannelKind<O> {
  return kind;
}

/**
 * A secret option given as `name` or as `name_file` (one line; a trailing newline is trimmed), as the other secrets
 * of rfq-sync: its value, read and registered with the log scrubber; undefined (with the problem added) otherwise.
 */
export function secretOption(
  o: Record<string, unknown>,
  name: string,
  c: z.RefinementCtx,
  required: boolean,
): string | undefined {
  const value = o[name];
  const file = o[`${name}_file`];
  if (value !== undefined && file !== undefined) {
    c.addIssue({ code: 'custom', path: [`${name}_file`], message: `set either ${name} or ${name}_file, not both` });
    return undefined;
  }
  if (typeof file === 'string') {
    try {
      const v = readFileSync(file, 'utf8').trim();
      registerSecret(v);
      if (!v) c.addIssue({ code: 'custom', path: [`${name}_file`], message: `${file} is empty` });
      return v || undefined;
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      c.addIssue({ code: 'custom', path: [`${name}_file`], message: `cannot read ${file}: ${why}` });
      return undefined;
    }
  }
  if (typeof value === 'string' && value !== '') {
    registerSecret(value);
    return value;
  }
  if (required) c.addIssue({ code: 'custom', path: [name], message: `${name} or ${name}_file is required` });
  return undefined;
}

/** Whole numbers within bounds (the options come from YAML or JSON, already typed). */
export const whole = (min: number, max: number) =>
  z
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const MIB = 1024 * 1024;
