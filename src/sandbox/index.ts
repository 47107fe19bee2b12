/**
 * The sandbox: a stand-in for the sourcing service over real HTTP, in both dialects, with faults, lag and an
 * autopilot that plays the suppliers.
 */
export { DEFAULT_SANDBOX_TOKEN, type Sandbox, type SandboxOptions, startSandbox } from './server.ts';
