// The emulator every Pulumi section runs against: in the bench process, seeded, with the numbers
// the graph binds already in the account.
import { startEmulator, type RateLimitOptions, type RunningEmulator } from "voiceagent-emulator";
import { benchNumber } from "./programs/numbers.js";

/** A running emulator, the token it accepts and the seeded voice the agents use. */
export interface BenchEmulator {
  emulator: RunningEmulator;
  token: string;
  voice: string;
}

/** Starts the emulator with `numbers` bench numbers (+1555900xxxx) in the token's account, rate limited if asked. */
export async function startBenchEmulator(numbers: number, rateLimit?: RateLimitOptions): Promise<BenchEmulator> {
  const token = "bench-token";
  const emulator = await startEmulator({ tokens: [token], seed: true, rateLimit });
  const { userId } = emulator.store.userFor(token);
  for (let i = 0; i < numbers; i++) emulator.service.addNumber(userId, benchNumber(i));
  const voice = emulator.seeds.get(token)?.voices[0];
  if (!voice) throw new Error("the seeded emulator has no voice");
  return { emulator, token, voice };
}
