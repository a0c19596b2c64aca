// Calls that progress on the emulator's clock (docs/emulator.md "Calls and events"): an outbound
// call made through the API and an inbound call placed through the admin API ring, connect, say
// their lines (the agent's opening message, then the script) and end, or do not connect. Each
// step writes the call's fields, as the API reads them, and produces the events the agent's webhook
// receives (webhooks/delivery.ts).
import { randomUUID } from "node:crypto";
import type {
  CallEvent,
  CallEventsAnswer,
  CalleeSchema,
  InboundCallSchema,
  Sender,
  UNANSWERED_REASONS,
} from "pulumi-voiceagent/schemas";
import type { z } from "zod";
import type { Store } from "../db.js";
import { HttpFailure } from "../http-failure.js";
import {
  type DeliveryLog,
  type DeliveryOptions,
  type DeliveryRecord,
  WebhookDeliveries,
  type WebhookTarget,
} from "../webhooks/delivery.js";
import { type Clock, type ClockTimer, realClock, TestClock } from "./clock.js";

/** How calls progress (`calls` of the emulator's options; without it calls stay as they were made). */
export interface CallsOptions {
  /** The clock stages and retries run on: real time by default, a `TestClock` in tests. */
  clock?: Clock;
  /** The time between two steps of a call (ringing, each line, the hang-up). Default 1000 ms. */
  stepMs?: number;
  /** Webhook delivery: timeouts, attempts, backoff. */
  webhooks?: DeliveryOptions;
}

/** What the caller says when an inbound call gives no script, and a callee that answers with none. */
const DEFAULT_SCRIPT = ["Hello, this is a test call."];

type Phase = CallEventsAnswer["phase"];
type Line = { sender: Sender; text: string };
type Callee = z.output<typeof CalleeSchema>;
type ScriptLine = NonNullable<z.output<typeof InboundCallSchema>["script"]>[number];

/** A call as stored: the fields the bench reads and writes (the rest are kept as they are). */
type CallRow = {
  id: string;
  user_id: string;
  status?: string | null;
  to_number: string;
  from_number: string;
  agent: string;
  [field: string]: unknown;
};
type AgentRow = { id: string; user_id: string; initial_message?: string | null; webhook?: string | null };
type NumberRow = {
  id: string;
  user_id: string;
  number: string;
  active: boolean;
  inbound_agent: string | null;
  outbound_only?: boolean;
  telephony_provider?: string;
};
type WebhookRow = { id: string; url: string; method?: string | null; subscriptions: string[] };

interface EventRecord {
  seq: number;
  event: CallEvent;
  delivery: DeliveryRecord | null;
}

interface Progress {
  id: string;
  userId: string;
  agent: string;
  phase: Phase;
  webhook: (WebhookTarget & { subscriptions: string[] }) | null;
  lines: Line[];
  said: number;
  startedAt?: number;
  timer?: ClockTimer | undefined;
  events: EventRecord[];
  /** Set for an outbound call to a number told not to answer. */
  unanswered?: string;
}

/** Why an inbound call was not answered. */
type Unanswered = (typeof UNANSWERED_REASONS)[number];

/** Calls in progress and done, their events, and the deliveries of those events. */
export class CallBench {
  readonly clock: Clock;
  readonly deliveries: WebhookDeliveries;
  private readonly stepMs: number;
  private readonly calls = new Map<string, Progress>();
  private readonly callees = new Map<string, Callee>();
  private placingInbound = false;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly api: "2023" | "2024",
    opts: CallsOptions,
    log: DeliveryLog,
  ) {
    this.clock = opts.clock ?? realClock;
    this.stepMs = opts.stepMs ?? 1000;
    this.deliveries = new WebhookDeliveries(this.clock, opts.webhooks ?? {}, log, () => this.changed());
    // An outbound call is made by calls/create (routes.ts, service.ts): the bench dials every call
    // stored, except the inbound ones it stores itself.
    store.onInsert((table, id, userId) => {
      if (table === "call" && !this.placingInbound) this.dial(userId, id);
    });
  }

  /**
   * Rings `to` (one of the caller's numbers) from `from`: its inbound agent answers. A number
   * that is cancelled, outbound-only or bound to no agent does not answer: the service never sees
   * the call, so no call is made and no event is sent (409 with the reason).
   */
  inbound(userId: string, body: z.output<typeof InboundCallSchema>): { id: string; agent: string; phase: Phase } {
    const held = this.store.getByKey<NumberRow>("number", body.to);
    if (!held || held.userId !== userId) throw new HttpFailure(404, "Phone number not found");
    const number = held.data;
    const refuse = (reason: Unanswered, why: string) => {
      throw new HttpFailure(409, `${body.to} did not answer (${reason}): ${why}; no call was made`);
    };
    if (!number.active) refuse("number_cancelled", "the number is cancelled");
    if (number.outbound_only) refuse("outbound_only", "the number is outbound-only and refuses inbound calls");
    const agent = number.inbound_agent ? this.store.get<AgentRow>("agent", userId, number.inbound_agent) : undefined;
    if (!agent) refuse("no_inbound_agent", "no agent is bound to the number");
    const agentId = agent?.id ?? "";
    const row: CallRow = {
      id: randomUUID(),
      user_id: userId,
      status: "not_started",
      error_message: null,
      recording_available: false,
      transcript: null,
      to_number: body.to,
      from_number: body.from,
      agent: agentId,
      // The current API's side of the call: the agent answers on the number dialled, through its provider.
      ...(this.api === "2024"
        ? { agent_phone_number: body.to, telephony_provider: number.telephony_provider ?? "twilio" }
        : {}),
    };
    this.placingInbound = true;
    try {
      this.store.insert("call", row);
    } finally {
      this.placingInbound = false;
    }
    const p = this.track(row, body.script);
    return { id: p.id, agent: p.agent, phase: p.phase };
  }

  /** How an outbound call to `callee.number` goes from now on (per account). */
  setCallee(userId: string, callee: Callee): Callee {
    this.callees.set(`${userId} ${callee.number}`, callee);
    return callee;
  }

  /** The call's progress and events so far; 404 for another account's or an unknown call. */
  events(userId: string, id: string): CallEventsAnswer {
    const p = this.calls.get(id);
    if (!p || p.userId !== userId) throw new HttpFailure(404, "Call not found");
    return {
      id: p.id,
      agent: p.agent,
      phase: p.phase,
      webhook: p.webhook ? { id: p.webhook.id, subscriptions: p.webhook.subscriptions } : null,
      settled: this.terminal(p) && p.events.every((e) => e.delivery?.state !== "pending"),
      events: p.events.map((e) => ({ seq: e.seq, event: e.event, delivery: e.delivery ? { ...e.delivery } : null })),
    };
  }

  /** Whether `callId` is a call of `userId`'s (the admin API shows each account its own failures). */
  owns(userId: string, callId: string): boolean {
    return this.calls.get(callId)?.userId === userId;
  }

  /** How many calls are in each phase. */
  phases(): Record<Phase, number> {
    const out: Record<Phase, number> = { ringing: 0, connected: 0, ended: 0, did_not_connect: 0 };
    for (const p of this.calls.values()) out[p.phase]++;
    return out;
  }

  /**
   * Resolves once every call has ended (or not connected) and every event is delivered or
   * dropped. On a `TestClock` it moves the clock from one timer to the next (calls run ahead of
   * their deliveries, as on a real clock), so a test runs calls to their end without sleeping.
   */
  async settle(): Promise<void> {
    for (;;) {
      const busy = [...this.calls.values()].some((p) => !this.terminal(p)) || !this.deliveries.idle;
      if (!busy || this.closed) return;
      // Calls never wait on deliveries: the test clock runs ahead while attempts are on the wire.
      if (this.clock instanceof TestClock && this.clock.next()) {
        // Let what the timer started (a delivery's request) get on its way.
        await new Promise((r) => setImmediate(r));
        continue;
      }
      const sending = this.deliveries.sending;
      if (sending.length > 0) {
        await Promise.race(sending);
        continue;
      }
      if (this.clock instanceof TestClock) throw new Error("calls are not over but no timer is set");
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /**
   * Stops every call where it is and every retry (the emulator is closing; its store is about to
   * close, so no step may run after this).
   */
  close(): void {
    this.closed = true;
    for (const p of this.calls.values()) p.timer?.cancel();
    this.deliveries.close();
    this.changed();
  }

  /** An outbound call made through the API: the callee answers unless told otherwise. */
  private dial(userId: string, id: string): void {
    const row = this.store.get<CallRow>("call", userId, id);
    if (!row) return;
    const callee = this.callees.get(`${userId} ${row.to_number}`);
    const p = this.track(row, callee?.script);
    if (callee && !callee.answers) p.unanswered = callee.telephony_status;
  }

  private track(row: CallRow, script: ScriptLine[] | undefined): Progress {
    const agent = this.store.get<AgentRow>("agent", row.user_id, row.agent);
    const hook = agent?.webhook ? this.store.get<WebhookRow>("webhook", row.user_id, agent.webhook) : undefined;
    const lines: Line[] = [
      ...(agent?.initial_message ? [{ sender: "bot" as const, text: agent.initial_message }] : []),
      ...(script ?? DEFAULT_SCRIPT).map((l) => (typeof l === "string" ? { sender: "human" as const, text: l } : l)),
    ];
    const p: Progress = {
      id: row.id,
      userId: row.user_id,
      agent: row.agent,
      phase: "ringing",
      webhook: hook
        ? { id: hook.id, url: hook.url, method: hook.method ?? "POST", subscriptions: [...hook.subscriptions] }
        : null,
      lines,
      said: 0,
      events: [],
    };
    this.calls.set(p.id, p);
    this.schedule(p, () => this.pickUp(p));
    return p;
  }

  private schedule(p: Progress, step: () => void): void {
    if (this.closed) return;
    p.timer = this.clock.after(this.stepMs, () => {
      p.timer = undefined;
      // A call ended through the API (calls/end) ends here, at its next step.
      if (!this.endedElsewhere(p)) step();
      this.changed();
    });
  }

  private pickUp(p: Progress): void {
    if (p.unanswered) {
      this.didNotConnect(p, p.unanswered);
      return;
    }
    p.phase = "connected";
    p.startedAt = this.clock.now();
    const row = this.write(p, {
      status: "in_progress",
      ...this.current({ stage: "picked_up", start_time: this.iso(p.startedAt) }),
    });
    this.emit(p, {
      type: "event_phone_call_connected",
      conversation_id: p.id,
      to_phone_number: row?.to_number ?? "",
      from_phone_number: row?.from_number ?? "",
    });
    this.schedule(p, () => this.say(p));
  }

  private say(p: Progress): void {
    const line = p.lines[p.said];
    if (!line) {
      this.hangUp(p, "human_disconnected");
      return;
    }
    p.said++;
    const timestamp = this.clock.now() / 1000;
    this.write(p, { transcript: this.transcript(p) });
    this.emit(p, { type: "event_transcript", conversation_id: p.id, ...line, timestamp });
    this.emit(p, { type: "event_message", conversation_id: p.id, ...line, timestamp });
    this.schedule(p, () => this.say(p));
  }

  private hangUp(p: Progress, outcome: "human_disconnected" | "bot_disconnected"): void {
    p.phase = "ended";
    const end = this.clock.now();
    this.write(p, { status: "ended", ...this.current({ stage_outcome: outcome, end_time: this.iso(end) }) });
    const minutes = Math.round(((end - (p.startedAt ?? end)) / 60_000) * 100) / 100;
    this.emit(p, { type: "event_phone_call_ended", conversation_id: p.id, conversation_minutes: minutes });
  }

  private didNotConnect(p: Progress, telephonyStatus: string): void {
    p.phase = "did_not_connect";
    const outcome = telephonyStatus === "no-answer" ? "human_unanswered" : "call_did_not_connect";
    this.write(p, {
      status: telephonyStatus === "canceled" ? "ended" : "error",
      error_message: `the call did not connect (${telephonyStatus})`,
      ...this.current({ stage: "created", stage_outcome: outcome, end_time: this.iso(this.clock.now()) }),
    });
    this.emit(p, {
      type: "event_phone_call_did_not_connect",
      conversation_id: p.id,
      telephony_status: telephonyStatus,
    });
  }

  /** calls/end set the call ended: it hangs up (or, still ringing, never connects). */
  private endedElsewhere(p: Progress): boolean {
    const row = this.store.get<CallRow>("call", p.userId, p.id);
    if (row?.status !== "ended" && row?.status !== "error") return false;
    if (p.phase === "ringing") this.didNotConnect(p, "canceled");
    else this.hangUp(p, "bot_disconnected");
    return true;
  }

  private emit(p: Progress, event: CallEvent): void {
    const subscribed = p.webhook?.subscriptions.includes(event.type) ? p.webhook : undefined;
    const delivery = subscribed ? this.deliveries.enqueue(p.id, subscribed, event) : null;
    p.events.push({ seq: p.events.length, event, delivery });
  }

  /** Writes `fields` onto the stored call (its other fields as they are); undefined when it is gone. */
  private write(p: Progress, fields: Record<string, unknown>): CallRow | undefined {
    const row = this.store.get<CallRow>("call", p.userId, p.id);
    if (!row) return undefined;
    return this.store.update("call", { ...row, ...fields });
  }

  /** The current API's own fields, left out when the emulator speaks the interface (2023). */
  private current(fields: Record<string, unknown>): Record<string, unknown> {
    return this.api === "2024" ? fields : {};
  }

  /** The transcript as the call's `transcript` field holds it: one `SENDER: text` line each. */
  private transcript(p: Progress): string {
    return p.lines
      .slice(0, p.said)
      .map((l) => `${l.sender.toUpperCase()}: ${l.text}`)
      .join("\n");
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  private terminal(p: Progress): boolean {
    return p.phase === "ended" || p.phase === "did_not_connect";
  }

  private changed(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}
