import type { Middleware } from "./scoped-protocol.js";

/**
 * A preview sends nothing: the engine's create and update with `preview` set are answered by what
 * they would record (`previewCreate`, `previewUpdate`), never by the methods that write.
 */
export const previewing: Middleware = (inner) => ({
  ...inner,
  create: (scope, req) => (req.preview ? inner.previewCreate(scope, req) : inner.create(scope, req)),
  update: (scope, req) => (req.preview ? inner.previewUpdate(scope, req) : inner.update(scope, req)),
});
