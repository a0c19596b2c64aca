import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CalleeSchema, InboundCallSchema } from "pulumi-voiceagent/schemas";
import { z } from "zod";
import { HttpFailure } from "../http-failure.js";
import { callerOf } from "../request-context.js";
import type { CallBench } from "./bench.js";

const IdQuerySchema = z.object({ id: z.string() });

/**
 * The admin API of calls (docs/emulator.md "Calls and events"): ring a number, tell how a callee
 * answers, read a call's events and their deliveries, and the deliveries' counters and failures.
 * Without a bench (the emulator started without `calls`) each answers 409 saying how to start one.
 */
export const callAdminRoutes: FastifyPluginAsyncZod<{ bench: CallBench | undefined }> = async (app, { bench }) => {
  const hide = { hide: true };
  const need = (): CallBench => {
    if (bench) return bench;
    throw new HttpFailure(
      409,
      "calls do not progress on this emulator: start it with --calls (buildEmulator({ calls: {} }))",
    );
  };
  app.post("/admin/calls/inbound", { schema: { ...hide, body: InboundCallSchema } }, async (req) =>
    need().inbound(callerOf(req).userId, req.body),
  );
  app.post("/admin/calls/callees", { schema: { ...hide, body: CalleeSchema } }, async (req) =>
    need().setCallee(callerOf(req).userId, req.body),
  );
  app.get("/admin/calls/events", { schema: { ...hide, querystring: IdQuerySchema } }, async (req) =>
    need().events(callerOf(req).userId, req.query.id),
  );
  // The counters are the emulator's, as /admin/stats; the failures listed are the caller's calls' only.
  app.get("/admin/webhooks/deliveries", { schema: hide }, async (req) => {
    const b = need();
    const { userId } = callerOf(req);
    const failures = b.deliveries.failures.filter((f) => b.owns(userId, f.call));
    return { ...b.deliveries.counts, calls: b.phases(), failures };
  });
};
