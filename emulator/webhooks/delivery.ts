// Sending a call's events to its agent's webhook: one queue per call (its events arrive in order,
// each once), retries with backoff on the emulator's clock, a bounded number of attempts, then the
// event is dropped and counted. Calls never wait on each other: a receiver that never answers
// holds only its own call's queue, and each attempt is cut off after a timeout.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { CallEvent } from "pulumi-voiceagent/schemas";
import type { Clock, ClockTimer } from "../calls/clock.js";

/** How events are delivered (`calls.webhooks` of the emulator's options). */
export interface DeliveryOptions {
  /** Real milliseconds an attempt may take before it counts as failed (`timeout`). Default 5000. */
  timeoutMs?: number;
  /** Attempts per event, the first included, before it is dropped. Default 5. */
  maxAttempts?: number;
  /** The wait on the emulator's clock before the first retry, doubled for each next one. Default 1000. */
  backoffMs?: number;
}

/** The webhook an event goes to: its id, where, and how. */
export interface WebhookTarget {
  id: string;
  url: string;
  method: string;
}

/** What became of one event's delivery (read by `GET /admin/calls/events`). */
export interface DeliveryRecord {
  webhook: string;
  state: "pending" | "delivered" | "dropped";
  attempts: number;
  last_failure: string | null;
}

/** A failed attempt, as `GET /admin/webhooks/deliveries` lists it: never the URL's query or credentials. */
export interface DeliveryFailure {
  call: string;
  event: string;
  webhook: string;
  /** The receiver's origin and path. */
  target: string;
  attempt: number;
  failure: string;
  /** What happens next: `retry` (after `retry_in_ms` on the emulator's clock) or `dropped`. */
  next: "retry" | "dropped";
  retry_in_ms?: number;
  at: string;
}

/** The deliveries' counters. */
export interface DeliveryCounts {
  delivered: number;
  failed_attempts: number;
  dropped: number;
}

/** Where failures are told (the emulator's pino logger, or nothing). */
export interface DeliveryLog {
  warn(obj: object, msg: string): void;
}

interface Job {
  call: string;
  target: WebhookTarget;
  event: CallEvent;
  record: DeliveryRecord;
}

type Outcome = { ok: true } | { ok: false; failure: string; retry: boolean };

/** How many failures the admin API keeps (the newest). */
const KEPT_FAILURES = 200;

/** The receiver's address without its query, fragment or credentials: what logs and /admin show. */
export function shownTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid url)";
  }
}

/** Every call's queue of events to deliver. */
export class WebhookDeliveries {
  readonly counts: DeliveryCounts = { delivered: 0, failed_attempts: 0, dropped: 0 };
  /** The newest failed attempts, oldest first. */
  readonly failures: DeliveryFailure[] = [];
  private readonly queues = new Map<string, Job[]>();
  /** Calls whose head event is being sent or waits for a retry. */
  private readonly busyCalls = new Set<string>();
  private readonly inflight = new Set<Promise<void>>();
  /** Retries waiting on the clock, cancelled when the emulator closes. */
  private readonly retries = new Set<ClockTimer>();
  private closed = false;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;

  constructor(
    private readonly clock: Clock,
    opts: DeliveryOptions,
    private readonly log: DeliveryLog,
    /** Told whenever a delivery moves (the bench's settle waits on it). */
    private readonly changed: () => void,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
    this.backoffMs = opts.backoffMs ?? 1000;
  }

  /** Queues `event` of `call` for `target`; the record it answers changes as the delivery goes. */
  enqueue(call: string, target: WebhookTarget, event: CallEvent): DeliveryRecord {
    const record: DeliveryRecord = { webhook: target.id, state: "pending", attempts: 0, last_failure: null };
    const queue = this.queues.get(call) ?? [];
    queue.push({ call, target, event, record });
    this.queues.set(call, queue);
    this.pump(call);
    return record;
  }

  /** Stops retrying (the emulator is closing): what waits for a retry is never sent. */
  close(): void {
    this.closed = true;
    for (const t of this.retries) t.cancel();
    this.retries.clear();
  }

  /** Whether any event waits to be delivered. */
  get idle(): boolean {
    return this.queues.size === 0;
  }

  /** The attempts on the wire now. */
  get sending(): Promise<void>[] {
    return [...this.inflight];
  }

  /** Sends the head of `call`'s queue, unless it is being sent or waits for a retry. */
  private pump(call: string): void {
    if (this.busyCalls.has(call)) return;
    const job = this.queues.get(call)?.[0];
    if (!job) {
      this.queues.delete(call);
      return;
    }
    this.busyCalls.add(call);
    this.attempt(job);
  }

  private attempt(job: Job): void {
    job.record.attempts++;
    const sent = send(job.target, job.event, this.timeoutMs).then((outcome) => this.after(job, outcome));
    this.inflight.add(sent);
    void sent.finally(() => {
      this.inflight.delete(sent);
      this.changed();
    });
  }

  private after(job: Job, outcome: Outcome): void {
    const { record } = job;
    if (outcome.ok) {
      record.state = "delivered";
      this.counts.delivered++;
      this.next(job);
      return;
    }
    this.counts.failed_attempts++;
    record.last_failure = outcome.failure;
    const retry = outcome.retry && record.attempts < this.maxAttempts;
    const wait = this.backoffMs * 2 ** (record.attempts - 1);
    const failure: DeliveryFailure = {
      call: job.call,
      event: job.event.type,
      webhook: job.target.id,
      target: shownTarget(job.target.url),
      attempt: record.attempts,
      failure: outcome.failure,
      next: retry ? "retry" : "dropped",
      ...(retry ? { retry_in_ms: wait } : {}),
      at: new Date(this.clock.now()).toISOString(),
    };
    this.failures.push(failure);
    if (this.failures.length > KEPT_FAILURES) this.failures.shift();
    this.log.warn(
      { delivery: failure },
      retry
        ? `webhook delivery failed (${outcome.failure}); retrying`
        : `webhook delivery failed (${outcome.failure}); event dropped`,
    );
    if (retry) {
      if (this.closed) return;
      const timer = this.clock.after(wait, () => {
        this.retries.delete(timer);
        this.attempt(job);
      });
      this.retries.add(timer);
      return;
    }
    record.state = "dropped";
    this.counts.dropped++;
    this.next(job);
  }

  private next(job: Job): void {
    const queue = this.queues.get(job.call);
    queue?.shift();
    this.busyCalls.delete(job.call);
    if (queue?.length === 0) this.queues.delete(job.call);
    this.pump(job.call);
    this.changed();
  }
}

/**
 * One attempt: the event as a JSON body with the webhook's method (a GET carries the body too),
 * over a fresh connection, cut off after `timeoutMs`. 2xx is delivered; 5xx, 408, 429, a timeout
 * or a connection error is retried; any other answer is final.
 */
function send(target: WebhookTarget, event: CallEvent, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      resolve({ ok: false, failure: "invalid url", retry: false });
      return;
    }
    const body = JSON.stringify(event);
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = request(url, {
      method: target.method || "POST",
      agent: false,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "voiceagent-emulator",
      },
    });
    const timer = setTimeout(() => {
      finish({ ok: false, failure: "timeout", retry: true });
      req.destroy();
    }, timeoutMs);
    req.on("response", (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) finish({ ok: true });
      else finish({ ok: false, failure: String(status), retry: status >= 500 || status === 408 || status === 429 });
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      finish({ ok: false, failure: err.code ?? err.message, retry: true }),
    );
    req.end(body);
  });
}
