import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { buildEmulator, type Emulator, type EmulatorOptions } from "voiceagent-emulator";

/** A parsed answer of the emulator: tests read its fields directly (its schemas are checked in test/emulator). */
// biome-ignore lint/suspicious/noExplicitAny: the one `any` of these helpers, named so each use is visible
export type EmulatorJson = any;

/** A fresh in-memory emulator with two seeded users, for inject-based tests. */
export interface TestEmulator {
  emu: Emulator;
  tokenA: string;
  tokenB: string;
  /** Authorization header for a token. */
  auth(token?: string): { authorization: string };
  /** inject() as user A (or the given token), returning status and parsed JSON. */
  call(
    method: "GET" | "POST" | "DELETE" | "PUT",
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; json: EmulatorJson; headers: Record<string, unknown> }>;
}

/** Builds a seeded in-memory emulator with users A and B. */
export async function testEmulator(extra: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const tokenA = `token-a-${randomUUID()}`;
  const tokenB = `token-b-${randomUUID()}`;
  const emu = await buildEmulator({ tokens: [tokenA, tokenB], seed: true, validateResponses: true, ...extra });
  const auth = (token = tokenA) => ({ authorization: `Bearer ${token}` });
  return {
    emu,
    tokenA,
    tokenB,
    auth,
    async call(method, url, body, token = tokenA) {
      const res = await emu.app.inject({
        method,
        url,
        headers: { ...auth(token), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      let json: unknown;
      try {
        json = res.json();
      } catch {
        json = res.body;
      }
      return { status: res.statusCode, json, headers: res.headers };
    },
  };
}

/**
 * One request over a fresh connection (no keep-alive), with node:http: a destroyed connection
 * rejects with the socket's own error (ECONNRESET, "socket hang up"), as a real client meets it.
 */
export function httpRequest(
  baseUrl: string,
  method: "GET" | "POST",
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: EmulatorJson }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.end(body !== undefined ? JSON.stringify(body) : undefined);
  });
}
