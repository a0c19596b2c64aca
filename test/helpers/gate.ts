// A promise a test settles by hand, to order steps across processes or callbacks without sleeping.

/** A promise (`opened`) and the function that resolves it (`open`). */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
