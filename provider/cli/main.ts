#!/usr/bin/env node
// The `voiceagent` command (the package's bin): pull, audit, drift. See `voiceagent --help`.
import { processIo } from "./output.js";
import { runCli } from "./program.js";

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
