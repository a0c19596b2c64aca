/**
 * The typed client for the voice agent calling service (got + zod), usable without Pulumi.
 * @example
 * import { createClient } from "pulumi-voiceagent/client";
 * const client = createClient({ baseUrl, token });
 * await client.numbers.update("+15551234567", agentId);
 */
export { createClient, type CreateClientInput, type VoiceAgentClient } from "./client.js";
export { VoiceAgentError } from "../voiceagent-error.js";
export { ClientSettingsError } from "./settings-error.js";
export {
  ApiError,
  ApiAmbiguousCreateError,
  ApiAuthError,
  ApiBookkeepingError,
  ApiConnectionError,
  ApiOutcomeUnknownError,
  ApiIncompleteListingError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  ApiValidationError,
  redact,
  registerSecret,
  type ApiErrorCode,
  type ApiErrorDetails,
  type UnsettledCreate,
} from "./errors.js";
export {
  defaultClientOptions,
  mergeOptions,
  PACKAGE_VERSION,
  type ClientOptions,
  type ClientOptionsInput,
  type ReconcileOptions,
  type RequestLogEvent,
  type RetryOptions,
} from "./options.js";
export {
  createCapabilities,
  isRouteMissing,
  listRouteOf,
  COLLECTIONS,
  EXTENSION_KINDS,
  type Capabilities,
  type Collection,
  type ExtensionKind,
  type ExtensionsSetting,
} from "./capabilities.js";
export { withBudget } from "./budget.js";
export { bodyKey, matchesSent } from "./match.js";
export { MemoryLedger, type CreateLedger, type Picked, type Until } from "./ledger.js";
export {
  API_GENERATIONS,
  ApiGenerationError,
  generationOf,
  type ApiGeneration,
  type ApiSetting,
  type Generation,
} from "./generation.js";
export { mayHaveActed } from "./transport.js";
export {
  gapOf,
  listingOf,
  lookFor,
  lookForId,
  readable,
  type CompleteListing,
  type IncompleteListing,
  type Listing,
  type Sighting,
} from "./listing.js";
export { Pacer, paceNote, type PaceEvent } from "./pace.js";
export { onPaceWait, pacerFor } from "./stores.js";
export { Throttle, type ThrottleOptions } from "./throttle.js";
export type { Send, SendInput, SendRoute, RouteInput, Transport } from "./transport.js";
export type { LinkedNumberChange } from "./linked-numbers.js";
export { CURRENT_COLLECTIONS } from "./current-collections.js";
export type { CollectionPagers, Pager } from "./pager.js";
export type { TableCollectionName, TableNamespace, TableNamespaces } from "./collection-client.js";
export * from "../schemas/index.js";
