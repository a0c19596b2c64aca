import type { RequestScope } from "../resources/kit/scope.js";
import type {
  CheckRequest,
  CheckResponse,
  CreateRequest,
  CreateResponse,
  DeleteRequest,
  DiffRequest,
  DiffResponse,
  InvokeRequest,
  InvokeResponse,
  PropertiesResponse,
  ReadRequest,
  ReadResponse,
  UpdateRequest,
} from "./protocol.js";

// The plain provider's resource requests once each has its scope (kit/scope.ts): what the
// middleware between the engine's edge and the kinds pass to one another (plugin/plain-provider.ts
// composes them). Each wrapper takes one such provider and answers another, changing one concern:
// go-provider's middleware/ does the same with its Provider struct.

/** The resource requests, each with the scope it runs in. */
export interface ScopedProvider {
  check(scope: RequestScope, req: CheckRequest): Promise<CheckResponse>;
  diff(scope: RequestScope, req: DiffRequest): Promise<DiffResponse>;
  create(scope: RequestScope, req: CreateRequest): Promise<CreateResponse>;
  /** What a create would answer, sending nothing (its preview). */
  previewCreate(scope: RequestScope, req: CreateRequest): Promise<CreateResponse>;
  read(scope: RequestScope, req: ReadRequest): Promise<ReadResponse>;
  update(scope: RequestScope, req: UpdateRequest): Promise<PropertiesResponse>;
  /** What an update would answer, sending nothing (its preview). */
  previewUpdate(scope: RequestScope, req: UpdateRequest): Promise<PropertiesResponse>;
  delete(scope: RequestScope, req: DeleteRequest): Promise<void>;
  invoke(scope: RequestScope, req: InvokeRequest): Promise<InvokeResponse>;
}

/** A wrapper: one concern of the protocol around the provider it is given. */
export type Middleware = (inner: ScopedProvider) => ScopedProvider;

/** What the plugin loads on first use, once (plugin/lazy.ts). */
export type Load = () => Promise<typeof import("./lazy.js")>;
