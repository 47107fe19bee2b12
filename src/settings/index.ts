/**
 * The configuration: one zod schema parsed once at start, its loader, secrets and Redis settings, and each
 * concern's settings with their documented defaults.
 */
export { readTokenFile, tokenProblem } from './config-secrets.ts';
export { type Config, loadConfig, PACKAGE_ROOT } from './config.ts';
export { displayRedisUrl } from './config-redis.ts';
export { settingOrigin } from './setting-origin.ts';
export type { SettingValues } from './fields.ts';
export type { Folders, folderSettings } from './folders.ts';
export type { jobSettings } from './jobs.ts';
export { channelEntrySchema, namedEntries, type notifySettings, routeSchema, type RouteSetting } from './notify.ts';
export type { operationsSettings } from './operations.ts';
export type { outputSettings } from './outputs.ts';
export type { pollingSettings } from './polling.ts';
export type { reconcileSettings } from './reconcile.ts';
export { ERP_CONSTANT_NAMES, type erpSettings } from './erp.ts';
export type { redisSettings } from './redis.ts';
export { type serviceSettings, SOURCING_DEFAULTS } from './service.ts';
export type { vendorSettings } from './vendors.ts';
export type { webhookSettings } from './webhooks.ts';
