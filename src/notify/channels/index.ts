/** The channel kinds, one line each: the export name is the `type` a channel names in NOTIFY_CHANNELS. */
export { default as smtp } from './smtp.ts';
export { default as teams } from './teams.ts';
export { default as slack } from './slack.ts';
export { default as webhook } from './webhook.ts';
