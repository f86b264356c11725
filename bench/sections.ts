// Sections of BENCHMARKS.md that a command of their own writes between markers (the drop
// simulation's, the size benchmark's) and that `npm run bench`, which writes the rest of the
// file, carries over unchanged.

/** `doc` with the part between `start` and `end` (markers included) replaced by `section`; appended when `doc` has none. */
export function replaceMarked(doc: string, section: string, start: string, end: string): string {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) return `${doc.replace(/\n*$/, '\n\n')}${section}`;
  const after = doc.slice(b + end.length).replace(/^\n/, '');
  return `${doc.slice(0, a)}${section}${after}`;
}

/** The part of `doc` between `start` and `end` (markers included), if it has one. */
export function markedOf(doc: string, start: string, end: string): string | undefined {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  return a >= 0 && b > a ? `${doc.slice(a, b + end.length)}\n` : undefined;
}
