// A client made without what it needs to reach the service: refused before any request.
import { VoiceAgentError } from "../voiceagent-error.js";

/** `createClient` was given no base URL or no token; nothing was sent. */
export class ClientSettingsError extends VoiceAgentError {
  override readonly name = "ClientSettingsError";
  readonly code = "E_SETTINGS";
  readonly mayHaveActed = false;
  constructor(missing: "baseUrl" | "token") {
    super(
      `createClient: ${missing} is required; nothing was sent to the service: pass the service's ${
        missing === "baseUrl" ? "address (e.g. https://api.example.com)" : "API token"
      }`,
    );
  }
}
