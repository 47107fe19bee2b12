/** The HTTP adapter of the sourcing port: one function per endpoint, every answer read through its schema. */
export { createSourcingClient, type SourcingClient, type SourcingClientOptions } from './http-client.ts';
