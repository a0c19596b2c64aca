/** The i-th benchmark number: +1555900xxxx (the bench adds them to the emulator). */
export function benchNumber(i: number): string {
  return `+1555900${String(i).padStart(4, "0")}`;
}
