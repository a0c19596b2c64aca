import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a RecordingServer received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
  body: string;
}

/** What a handler answers: status, JSON body (or raw text), headers. */
export interface Answer {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** A plain node:http server on 127.0.0.1:0 that records every request and answers from a handler. */
export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a recording server; `handler` decides each answer. */
export async function startRecordingServer(
  handler: (req: RecordedRequest) => Answer | Promise<Answer>,
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      void Promise.resolve(handler(recorded)).then(async (a) => {
        if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
        if (a.reset) {
          req.socket.destroy();
          return;
        }
        const body = a.text ?? (a.json === undefined ? "" : JSON.stringify(a.json));
        res.writeHead(a.status ?? 200, { "content-type": "application/json", ...a.headers });
        res.end(body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
