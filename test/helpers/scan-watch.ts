// Counts the work a parser does instead of timing it: while a watch is on, every regular
// expression run (RegExp.prototype.exec, which test, match, replace and split all go
// through once it is replaced) and every string method that reads a whole string
// (trim, indexOf, slice, toLowerCase, normalize, split, replace, Buffer.byteLength) reports
// the string it read, and every one-character read (charCodeAt, codePointAt, charAt) counts
// a step. A check that refuses a megabyte before reading it reports nothing that long and
// takes no steps; one that scans it, however fast, does.
export interface ScanWatch {
  /** The strings read while the watch was on, each once, as [length, first 40 characters]. */
  seen(): { length: number; head: string }[];
  /** The longest string read that `pick` selects (0 when none). */
  longest(pick?: (s: string) => boolean): number;
  /** One-character reads so far. */
  steps(): number;
  stop(): void;
}

const STRING_METHODS = ['trim', 'indexOf', 'slice', 'toLowerCase', 'normalize', 'split', 'replace'] as const;

export function watchScans(): ScanWatch {
  const read = new Set<string>();
  const note = (s: unknown) => {
    if (typeof s === 'string' && s.length > 0) read.add(s);
  };
  const restore: (() => void)[] = [];
  let steps = 0;
  const wrap = <T extends object>(
    target: T,
    name: string,
    record: (self: unknown, args: unknown[]) => void,
  ) => {
    const original = (target as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
    (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      record(this, args);
      return original.apply(this, args);
    };
    restore.push(() => {
      (target as Record<string, unknown>)[name] = original;
    });
  };
  wrap(RegExp.prototype, 'exec', (_self, args) => note(args[0]));
  for (const m of STRING_METHODS)
    wrap(String.prototype, m, (self) => note(typeof self === 'string' ? self : String(self)));
  wrap(Buffer, 'byteLength', (_self, args) => note(args[0]));
  for (const m of ['charCodeAt', 'codePointAt', 'charAt']) wrap(String.prototype, m, () => void steps++);
  return {
    seen: () => [...read].map((s) => ({ length: s.length, head: s.slice(0, 40) })),
    longest: (pick = () => true) => Math.max(0, ...[...read].filter(pick).map((s) => s.length)),
    steps: () => steps,
    stop: () => {
      for (const r of restore.splice(0).reverse()) r();
    },
  };
}
