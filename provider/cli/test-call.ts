// `voiceagent test-call`: a pipeline's proof, against the emulator, that a call to a line reaches
// the agent it should and that the agent's webhook receiver gets the call's events. It rings the
// number through the emulator's admin API (POST /admin/calls/inbound), optionally runs a local
// receiver, waits for the call to end and its deliveries to settle, and says what went wrong.
import { createServer, type Server } from "node:http";
import path from "node:path";
import { z } from "zod";
import {
  type CallEventsAnswer,
  CallEventsAnswerSchema,
  CallEventSchema,
  E164Schema,
  UNANSWERED_REASONS,
} from "../schemas/index.js";
import { resolveCredentials, type Credentials } from "./credentials.js";
import { CliError, EXIT, type ExitCode } from "./errors.js";
import type { CliIo } from "./output.js";

/** The events an answered call produces, in the order it produces them. */
const ANSWERED_EVENTS = ["event_phone_call_connected", "event_transcript", "event_message", "event_phone_call_ended"];

/** The options of `voiceagent test-call`. */
export interface TestCallOptions {
  to: string;
  from: string;
  agent?: string | undefined;
  events?: string[] | undefined;
  script: string[];
  listen?: number | undefined;
  timeout: number;
  json: boolean;
  baseUrl?: string | undefined;
  stack?: string | undefined;
  cwd?: string | undefined;
}

/** What one event type came to. */
interface EventCheck {
  type: string;
  produced: number;
  delivered: number;
  received?: number;
}

/** The report `--json` prints. */
interface Report {
  call: string | null;
  agent: string | null;
  phase: string | null;
  events: EventCheck[];
  problems: string[];
}

const InboundAnswerSchema = z.object({ id: z.string(), agent: z.string() });
const DetailSchema = z.object({ detail: z.unknown() });

/**
 * Places the test call and checks it: exit 0 when the call reached the expected agent and every
 * expected event was delivered (and received, with --listen), 3 with the reasons when not, 1 when
 * the command could not run.
 */
export async function testCall(opts: TestCallOptions, io: CliIo): Promise<ExitCode> {
  for (const [flag, n] of [
    ["--to", opts.to],
    ["--from", opts.from],
  ] as const) {
    if (!E164Schema.safeParse(n).success)
      throw new CliError(`${flag} must be an E.164 number such as +15550010001, not "${n}"`);
  }
  const cwd = path.resolve(io.cwd, opts.cwd ?? ".");
  const stack = opts.stack ? { name: opts.stack, ctx: { cwd, env: io.env } } : undefined;
  const creds = await resolveCredentials({ baseUrl: opts.baseUrl, env: io.env, stack });
  const receiver = opts.listen === undefined ? undefined : await startReceiver(opts.listen);
  try {
    const report = await run(opts, creds, receiver);
    print(report, opts, io);
    return report.problems.length ? EXIT.found : EXIT.clean;
  } finally {
    await receiver?.close();
  }
}

async function run(opts: TestCallOptions, creds: Credentials, receiver: Receiver | undefined): Promise<Report> {
  const report: Report = { call: null, agent: null, phase: null, events: [], problems: [] };
  const placed = await admin(creds, "POST", "/admin/calls/inbound", {
    to: opts.to,
    from: opts.from,
    ...(opts.script.length ? { script: opts.script } : {}),
  });
  const detail = DetailSchema.safeParse(placed.body);
  const why = detail.success ? String(detail.data.detail) : "";
  if (placed.status === 404 && why === "Phone number not found") {
    report.problems.push(`${opts.to} is not one of the account's numbers on ${creds.baseUrl}`);
    return report;
  }
  if (placed.status === 409 && UNANSWERED_REASONS.some((r) => why.includes(`(${r})`))) {
    report.problems.push(`the call to ${opts.to} did not reach an agent: ${why}`);
    return report;
  }
  const answer = InboundAnswerSchema.safeParse(placed.body);
  if (placed.status !== 200 || !answer.success) {
    throw new CliError(
      `POST /admin/calls/inbound on ${creds.baseUrl} answered ${placed.status}${why ? ` (${why})` : ""}: is ` +
        `--base-url (or VOICEAGENT_BASE_URL) the emulator's address, started with --calls?`,
    );
  }
  report.call = answer.data.id;
  report.agent = answer.data.agent;
  if (opts.agent && answer.data.agent !== opts.agent) {
    report.problems.push(`the call to ${opts.to} reached agent ${answer.data.agent}, not the expected ${opts.agent}`);
  }
  const progress = await waitSettled(creds, answer.data.id, opts.timeout);
  report.phase = progress.phase;
  if (!progress.settled) {
    report.problems.push(
      `the call ${progress.id} was not over, its events delivered or dropped, after ${opts.timeout} s (${progress.phase})`,
    );
  }
  const expected = opts.events ?? (progress.webhook?.subscriptions ?? []).filter((e) => ANSWERED_EVENTS.includes(e));
  if (!progress.webhook && expected.length) {
    report.problems.push(`agent ${progress.agent} has no webhook: no event of the call is sent anywhere`);
  } else if (!progress.webhook && !opts.events) {
    report.problems.push(`agent ${progress.agent} has no webhook: there is no event to check`);
  }
  const received = receiver?.events.filter((e) => e.conversation_id === progress.id) ?? [];
  for (const type of expected) {
    const ofType = progress.events.filter((e) => e.event.type === type);
    const check: EventCheck = {
      type,
      produced: ofType.length,
      delivered: ofType.filter((e) => e.delivery?.state === "delivered").length,
      ...(receiver ? { received: received.filter((e) => e.type === type).length } : {}),
    };
    report.events.push(check);
    report.problems.push(...eventProblems(check, ofType, progress, receiver));
  }
  return report;
}

/** Why one expected event type did not arrive, if it did not. */
function eventProblems(
  check: EventCheck,
  ofType: CallEventsAnswer["events"],
  progress: CallEventsAnswer,
  receiver: Receiver | undefined,
): string[] {
  const { type } = check;
  if (check.produced === 0) return [`the call produced no ${type} (it is ${progress.phase})`];
  if (progress.webhook && !progress.webhook.subscriptions.includes(type)) {
    return [`webhook ${progress.webhook.id} of agent ${progress.agent} does not subscribe to ${type}`];
  }
  const out: string[] = [];
  for (const e of ofType) {
    const d = e.delivery;
    if (d?.state === "dropped")
      out.push(`${type} #${e.seq} was dropped after ${d.attempts} attempt(s) (last: ${d.last_failure})`);
    else if (d?.state === "pending") out.push(`${type} #${e.seq} was still being delivered (${d.attempts} attempt(s))`);
  }
  if (receiver && out.length === 0 && check.received !== check.delivered) {
    out.push(
      `${type}: the emulator delivered ${check.delivered}, the receiver on port ${receiver.port} got ${check.received}: ` +
        `does the webhook's url point at it?`,
    );
  }
  return out;
}

/** Reads the call's events until it is settled or `timeout` seconds have passed. */
async function waitSettled(creds: Credentials, id: string, timeout: number): Promise<CallEventsAnswer> {
  const deadline = Date.now() + timeout * 1000;
  for (;;) {
    const res = await admin(creds, "GET", `/admin/calls/events?id=${encodeURIComponent(id)}`);
    const parsed = CallEventsAnswerSchema.safeParse(res.body);
    if (res.status !== 200 || !parsed.success) {
      throw new CliError(
        `GET /admin/calls/events on ${creds.baseUrl} answered ${res.status}: the test call ${id} was placed and nothing was changed besides it`,
      );
    }
    if (parsed.data.settled || Date.now() >= deadline) return parsed.data;
    // The emulator's clock runs in real time here: a call takes a few steps.
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function admin(
  creds: Credentials,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(new URL(route, creds.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${creds.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new CliError(
      `could not reach ${creds.baseUrl} (${cause}): is the emulator running and --base-url (or VOICEAGENT_BASE_URL) right?`,
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json };
}

interface Receiver {
  port: number;
  events: z.infer<typeof CallEventSchema>[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1:`port` that answers 200 to every event and keeps those it can read. */
async function startReceiver(port: number): Promise<Receiver> {
  const events: Receiver["events"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const parsed = CallEventSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (parsed.success) events.push(parsed.data);
      } catch {
        // Not JSON: not an event of a call; answered all the same.
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err) => reject(new CliError(`--listen ${port}: ${err.message}`)));
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    port: bound,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function print(report: Report, opts: TestCallOptions, io: CliIo): void {
  if (opts.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  if (report.call) io.stdout(`call ${report.call} to ${opts.to}: agent ${report.agent}, ${report.phase}\n`);
  for (const e of report.events) {
    const got = e.received === undefined ? "" : `, received ${e.received}`;
    io.stdout(`  ${e.type}: produced ${e.produced}, delivered ${e.delivered}${got}\n`);
  }
  if (report.problems.length === 0) io.stdout("ok: the call reached its agent and every event arrived\n");
  for (const p of report.problems) io.stdout(`FAIL: ${p}\n`);
}
