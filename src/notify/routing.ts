/**
 * Which routes an event goes to: those that pick its kind and whose filters it passes. A route filtering by profile,
 * location or category takes only events that carry that field with one of its values (a file refused before any
 * profile was chosen, or Redis losing its state, goes only to routes without that filter).
 */
import type { EventScope, NotifyEvent } from './event-kind.ts';
import type { NotifySettings, ResolvedRoute } from './notify-settings.ts';

function passes(filter: ReadonlySet<string> | undefined, value: string | undefined): boolean {
  return filter === undefined || (value !== undefined && filter.has(value));
}

export function routePicks(route: ResolvedRoute, kind: string, scope: EventScope): boolean {
  return (
    route.events.has(kind) &&
    passes(route.profiles, scope.profile) &&
    passes(route.locations, scope.location) &&
    passes(route.categories, scope.category)
  );
}

export function routesFor(
  settings: NotifySettings,
  event: NotifyEvent,
  o: { exceptChannel?: string } = {},
): ResolvedRoute[] {
  return [...settings.routes.values()].filter(
    (r) => r.channel !== o.exceptChannel && routePicks(r, event.kind, event.scope),
  );
}
