// Every test file's process kills, when it ends, what it started (test/helpers/orphans.ts).
import { reapOnExit } from "./helpers/orphans.js";

reapOnExit();
