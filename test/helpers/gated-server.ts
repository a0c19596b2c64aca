// Ordering without sleeps: a server that holds requests open until the test releases them, and a
// count of the requests a client has started. Together they show what a client does while N
// requests are in flight, at points where nothing is left to happen but what the test allows.
import diagnosticsChannel from "node:diagnostics_channel";
import { startRecordingServer, type Answer, type RecordedRequest, type RecordingServer } from "./recording-server.js";

/** A request the server has received and not answered yet. */
export interface HeldRequest {
  req: RecordedRequest;
  /** Answers it (with `answer`, or the server's default answer for it). */
  release(answer?: Answer): void;
}

/** A recording server whose held requests wait for the test. */
export interface GatedServer extends RecordingServer {
  /** Requests received and not yet released, oldest first. */
  held: HeldRequest[];
  /** Resolves once `predicate` holds (checked now and after every arrival). */
  until(predicate: () => boolean): Promise<void>;
  /** Releases every held request and holds nothing from now on. */
  open(): void;
}

/**
 * Starts a server where `decide` either answers a request at once or returns "hold"; a held
 * request is answered by `answer(req)` when the test calls `release()`.
 */
export async function startGatedServer(
  decide: (req: RecordedRequest) => Answer | "hold",
  answer: (req: RecordedRequest) => Answer,
): Promise<GatedServer> {
  const held: HeldRequest[] = [];
  let isOpen = false;
  const waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (!w.predicate()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const server = await startRecordingServer((req) => {
    const decision = decide(req);
    if (decision !== "hold") return decision;
    if (isOpen) return answer(req);
    return new Promise<Answer>((resolve) => {
      const entry: HeldRequest = {
        req,
        release: (a) => {
          held.splice(held.indexOf(entry), 1);
          resolve(a ?? answer(req));
        },
      };
      held.push(entry);
      check();
    });
  });
  const until = (predicate: () => boolean) =>
    new Promise<void>((resolve) => {
      waiters.push({ predicate, resolve });
      check();
    });
  const open = () => {
    isOpen = true;
    for (const h of [...held]) h.release();
  };
  return { ...server, held, until, open };
}

/** Requests started by any got-based client in this process (got's `got:request:create` channel), by URL. */
export interface StartedRequests {
  /** URLs in the order the client created the requests (a retry is a request too). */
  urls: string[];
  stop(): void;
}

/** Counts requests as the client creates them, before they reach the network. */
export function watchStartedRequests(): StartedRequests {
  const channel = diagnosticsChannel.channel("got:request:create");
  const urls: string[] = [];
  const onCreate = (message: unknown) => {
    if (typeof message === "object" && message !== null && "url" in message && typeof message.url === "string")
      urls.push(message.url);
  };
  channel.subscribe(onCreate);
  return { urls, stop: () => channel.unsubscribe(onCreate) };
}

/**
 * Lets every microtask run out. The client's limiter admits a request and got creates it within
 * microtasks, so after this every request the client will start on its own has been started.
 */
export const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
