import { Metadata, status, type ServerErrorResponse, type StatusObject } from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb.js";
import { ErrorResourceInitFailed } from "@pulumi/pulumi/proto/provider_pb.js";
import { Status } from "@pulumi/pulumi/proto/status_pb.js";
import { redact } from "../client/index.js";
import { PartialCreateError } from "../resources/kit/errors.js";
import { structOf } from "./wire.js";

/** What a handler answers with when it fails. */
export type Failure = Partial<StatusObject> | ServerErrorResponse;

/**
 * A failure as the engine reads it. A create that made an object but could not finish
 * (PartialCreateError) carries `pulumirpc.ErrorResourceInitFailed` in the status details, so the
 * engine keeps the object tracked with its id and outputs, as the dynamic host does
 * (sdk/nodejs/cmd/dynamic-provider `grpcResponseFromError` in pulumi v3.259.0). Anything else is
 * its message alone: the kit's messages say what failed, whether the service may have acted and
 * what to do; no stack, no gRPC internals. Redacted once more on the way out.
 */
export function failureOf(err: unknown, inputs?: Record<string, unknown>): Failure {
  const message = redact(err instanceof Error ? err.message : String(err));
  if (!(err instanceof PartialCreateError)) return { code: status.UNKNOWN, details: message };
  const detail = new ErrorResourceInitFailed().setId(err.id).setProperties(structOf(err.properties)).setReasonsList(err.reasons);
  if (inputs) detail.setInputs(structOf(inputs));
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const st = new Status().setCode(status.UNKNOWN).setMessage(message);
  st.addDetails(any);
  const metadata = new Metadata();
  // grpc-js has no structured details: the Go side reads them from this trailer.
  metadata.add("grpc-status-details-bin", Buffer.from(st.serializeBinary()));
  return { code: status.UNKNOWN, details: message, metadata };
}
