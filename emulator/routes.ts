import type { EndpointName, ParsedBodyOf, ParsedQueryOf, ResponseOf } from "pulumi-voiceagent/schemas";
import type { Caller } from "./app.js";
import type { VoiceAgentService } from "./service.js";

type Handler<N extends EndpointName> = (caller: Caller, query: ParsedQueryOf<N>, body: ParsedBodyOf<N>) => ResponseOf<N>;

/** One handler per endpoint name: the table the app registers routes from. */
export function routeHandlers(s: VoiceAgentService): { [N in EndpointName]: Handler<N> } {
  return {
    createAgent: (c, _q, b) => s.createAgent(c.userId, b),
    getAgent: (c, q) => s.getAgent(c.userId, q.id),
    updateAgent: (c, q, b) => s.updateAgent(c.userId, q.id, b),
    updateNumber: (c, q, b) => s.updateNumber(c.userId, q.phone_number, b),
    cancelNumber: (c, q) => s.cancelNumber(c.userId, q.phone_number),
    createCall: (c, _q, b) => s.createCall(c.userId, b),
    endCall: (c, q) => s.endCall(c.userId, q.id),
    updateVoice: (c, q, b) => s.updateVoice(c.userId, q.id, b),

    getVoice: (c, q) => s.getVoice(c.userId, q.id),
    getAction: (c, q) => s.getAction(c.userId, q.id),
    getWebhook: (c, q) => s.getWebhook(c.userId, q.id),
    getCall: (c, q) => s.getCall(c.userId, q.id),
    getNumber: (c, q) => s.getNumber(c.userId, q.phone_number),
    listAgents: (c, q) => s.list("agent", c.userId, q.page, q.size) as ResponseOf<"listAgents">,
    listVoices: (c, q) => s.list("voice", c.userId, q.page, q.size) as ResponseOf<"listVoices">,
    listNumbers: (c, q) => s.list("number", c.userId, q.page, q.size) as ResponseOf<"listNumbers">,
    listCalls: (c, q) => s.list("call", c.userId, q.page, q.size) as ResponseOf<"listCalls">,
    listActions: (c, q) => s.list("action", c.userId, q.page, q.size) as ResponseOf<"listActions">,
    listWebhooks: (c, q) => s.list("webhook", c.userId, q.page, q.size) as ResponseOf<"listWebhooks">,
    createVoice: (c, _q, b) => s.createVoice(c.userId, b),
    createAction: (c, _q, b) => s.createAction(c.userId, b),
    createWebhook: (c, _q, b) => s.createWebhook(c.userId, b),
    updateAction: (c, q, b) => s.updateAction(c.userId, q.id, b),
    updateWebhook: (c, q, b) => s.updateWebhook(c.userId, q.id, b),
    buyNumber: (c, _q, b) => s.buyNumber(c.userId, b),
  };
}
