import type { RequestScope } from "../resources/kit/scope.js";
import type { PlainProvider } from "./protocol.js";
import type { ScopedProvider } from "./scoped-protocol.js";

/** The resource requests of the plain provider. */
export type ResourceMethods = "check" | "diff" | "create" | "read" | "update" | "delete" | "invoke";

/** Makes one request's scope: its URN and its customTimeouts (the engine's `timeout`, in seconds). */
export type ScopeOf = (urn: string, timeout?: number) => Promise<RequestScope>;

/**
 * Each resource request in a scope of its own (kit/scope.ts), made from the provider's
 * configuration, the request's URN and its timeout, and run in it: the request's notes go out under
 * its URN and are sent before it answers, and everything it asks of the client shares one deadline.
 */
export function scoped(inner: ScopedProvider, scopeOf: ScopeOf): Pick<PlainProvider, ResourceMethods> {
  const run = async <T>(urn: string, timeout: number | undefined, work: (scope: RequestScope) => Promise<T>) => {
    const scope = await scopeOf(urn, timeout);
    return scope.run(() => work(scope));
  };
  return {
    check: (req) => run(req.urn, undefined, (s) => inner.check(s, req)),
    diff: (req) => run(req.urn, undefined, (s) => inner.diff(s, req)),
    create: (req) => run(req.urn, req.timeout, (s) => inner.create(s, req)),
    read: (req) => run(req.urn, req.timeout, (s) => inner.read(s, req)),
    update: (req) => run(req.urn, req.timeout, (s) => inner.update(s, req)),
    delete: (req) => run(req.urn, req.timeout, (s) => inner.delete(s, req)),
    invoke: (req) => run("", undefined, (s) => inner.invoke(s, req)),
  };
}
