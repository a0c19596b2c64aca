import type { Host } from "../host.js";
import type { Props } from "../resources/kit/kind.js";
import { type PlainProvider, ProviderFailure } from "./protocol.js";
import type { Load } from "./scoped-protocol.js";

/**
 * The outermost wrapper: each request run in the provider's host, failing only with a
 * {@link ProviderFailure} (plugin/status.ts `failureOf`): what the engine shows, redacted, saying
 * whether the service may have acted; a partial create keeps the inputs of the request that made
 * it and the outputs it must keep secret (`secretsOf`).
 */
export function failingAsProvider(
  provider: PlainProvider,
  { host, load, secretsOf }: { host: Host; load: Load; secretsOf: (type: string) => readonly string[] },
): PlainProvider {
  const failing = <T>(work: () => Promise<T>, inputs?: Props, secrets?: readonly string[]): Promise<T> =>
    host.run(async () => {
      try {
        return await work();
      } catch (err) {
        if (err instanceof ProviderFailure) throw err;
        throw (await load()).failureOf(err, inputs, secrets);
      }
    });
  return {
    ...provider,
    checkConfig: (req) => failing(() => provider.checkConfig(req)),
    diffConfig: (req) => failing(() => provider.diffConfig(req)),
    configure: (req) => failing(() => provider.configure(req)),
    check: (req) => failing(() => provider.check(req)),
    diff: (req) => failing(() => provider.diff(req)),
    create: (req) => failing(() => provider.create(req), req.properties, secretsOf(req.type)),
    read: (req) => failing(() => provider.read(req)),
    update: (req) => failing(() => provider.update(req), req.news, secretsOf(req.type)),
    delete: (req) => failing(() => provider.delete(req)),
    invoke: (req) => failing(() => provider.invoke(req)),
  };
}
