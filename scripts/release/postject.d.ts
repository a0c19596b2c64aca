// postject ships no types: the one function the release uses.
declare module "postject" {
  /** Injects `data` as the resource `name` into the executable `file`, in place. */
  export function inject(
    file: string,
    name: string,
    data: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
