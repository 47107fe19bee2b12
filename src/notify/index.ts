/** Messages to people: channels, event kinds, routes, delivery deadlines and the notify queue's messages. */
export { shownPath } from './compose.ts';
export type { DeliveryResult } from './delivery.ts';
export { onceWaitMs, sendOpenDigestsNow, unsentMessages } from './flush.ts';
export { createMessageStore } from './message-store.ts';
export { createNotifier, type Notifier } from './notifier.ts';
export { type NotifierConfig, resolveNotifySettings } from './notify-settings.ts';
export { sendTestMessage } from './test-message.ts';
