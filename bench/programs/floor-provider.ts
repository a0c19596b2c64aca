// The floor: a dynamic provider that does nothing, for the same resource graph, engine and backend.
import * as pulumi from "@pulumi/pulumi";

/** The no-op provider (exported for size comparisons). */
export const noop: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    const strip = (p: Record<string, unknown>) => JSON.stringify({ ...p, __provider: undefined });
    return { changes: strip(olds) !== strip(news) };
  },
  async create(inputs) {
    const { randomUUID } = await import("node:crypto");
    return { id: randomUUID(), outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

/** A no-op resource standing in for an Agent. */
export class FloorAgent extends pulumi.dynamic.Resource {
  constructor(name: string, args: { prompt: pulumi.Input<string>; voice: pulumi.Input<string> }) {
    super(noop, name, args, {}, "voiceagent-floor", "Agent");
  }
}

/** A no-op resource standing in for a PhoneNumber. */
export class FloorNumber extends pulumi.dynamic.Resource {
  constructor(name: string, args: { number: pulumi.Input<string>; inboundAgent: pulumi.Input<string> }) {
    super(noop, name, args, {}, "voiceagent-floor", "PhoneNumber");
  }
}
