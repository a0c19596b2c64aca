// An ad-hoc signature for the macOS executables: Apple silicon runs no unsigned code, and the
// injection leaves Node's own signature invalid. Ad hoc means no identity: Gatekeeper is not
// involved for a file the Pulumi CLI downloads itself (no quarantine attribute), so it runs.
import { execFileSync } from "node:child_process";

/** A way to sign a Mach-O file in place. */
export interface MacSigner {
  name: string;
  /** Before the injection: drop Node's signature where the tool can (Node's docs do, with codesign). */
  unsign?(file: string): void;
  sign(file: string): void;
}

function found(cmd: string): boolean {
  try {
    execFileSync(cmd, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** rcodesign (crates.io apple-codesign) where it is, else macOS's codesign on a Mac, else none. */
export function macSigner(): MacSigner | undefined {
  const rcodesign = process.env.RCODESIGN ?? "rcodesign";
  if (found(rcodesign)) {
    return {
      name: "rcodesign (ad hoc)",
      sign: (file) => execFileSync(rcodesign, ["sign", file], { stdio: ["ignore", "ignore", "inherit"] }),
    };
  }
  if (process.platform === "darwin") {
    return {
      name: "codesign (ad hoc)",
      unsign: (file) =>
        execFileSync("codesign", ["--remove-signature", file], { stdio: ["ignore", "ignore", "inherit"] }),
      sign: (file) =>
        execFileSync("codesign", ["--sign", "-", "--force", file], { stdio: ["ignore", "ignore", "inherit"] }),
    };
  }
  return undefined;
}
