import { z } from "zod";
import { ApiValidationError, E164Schema, UuidSchema, type PhoneNumber } from "../../client/index.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  number: E164Schema,
  inboundAgent: UuidSchema,
  cancelOnDelete: z.boolean().default(false),
};

/**
 * Numbers being replaced in this deployment. The engine's delete does not say whether it is part
 * of a replacement; diff runs in the same provider process first, so it records them here, and a
 * delete of a recorded number only unbinds: numbers/cancel never runs during a replacement.
 */
const replacing = new Set<string>();

const outsOf = (n: PhoneNumber, inputs: Props): Props =>
  compact({
    number: n.number,
    inboundAgent: n.inbound_agent?.id,
    cancelOnDelete: inputs.cancelOnDelete ?? false,
    active: n.active,
    numberId: n.id,
    userId: n.user_id,
    inboundAgentPrompt: n.inbound_agent?.prompt,
  });

/** PhoneNumber: binds an inbound agent with numbers/update; destroy unbinds (or cancels, if asked). */
export const phoneNumberSpec: ResourceSpec = {
  kind: "PhoneNumber",
  shape,
  fields: { inbound_agent: "inboundAgent", phone_number: "number" },
  diff: {
    fields: ["number", "inboundAgent", "cancelOnDelete"],
    replaceOn: ["number"],
    normalize: (p) => ({ ...p, cancelOnDelete: p.cancelOnDelete ?? false }),
  },
  onReplace(olds) {
    if (typeof olds.number === "string") replacing.add(olds.number);
  },
  async create(client, inputs) {
    const n = await client.numbers.update(inputs.number as string, inputs.inboundAgent as string);
    return { id: n.number, outs: outsOf(n, inputs) };
  },
  async read(client, id, props) {
    const n = await client.numbers.get(id);
    // A number cancelled outside Pulumi is gone: it can never be bound again.
    if (!n.active) return undefined;
    return found(outsOf(n, props), ["active", "numberId", "userId", "inboundAgentPrompt"]);
  },
  async update(client, id, olds, news) {
    if (olds.inboundAgent === news.inboundAgent) {
      return { ...olds, cancelOnDelete: news.cancelOnDelete ?? false };
    }
    return outsOf(await client.numbers.update(id, news.inboundAgent as string), news);
  },
  async delete(client, id, props) {
    if (props.cancelOnDelete === true && !replacing.has(id)) {
      await client.numbers.cancel(id);
      return;
    }
    try {
      await client.numbers.update(id, null);
    } catch (err) {
      if (err instanceof ApiValidationError) {
        throw new Error(
          `this service refuses to unbind ${id} (inbound_agent: null): the number stays bound to its agent. ` +
            "Set `retainOnDelete: true` on the resource to let Pulumi forget it, or bind it to another agent instead",
          { cause: err },
        );
      }
      throw err;
    }
  },
};
