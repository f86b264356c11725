// The sections of BENCHMARKS.md that `npm run bench` does not write (the drop simulation's,
// the size benchmark's), carried over from the file as it was into the report it writes.
import { sectionOf, withSection } from './drop-sim-report.js';
import { sizeSectionOf, withSizeSection } from './size-report.js';

/** `report` with the drop-sim and size sections of `old` after it, each as it was; the ones `old` lacks are left out. */
export function withKeptSections(report: string, old: string): string {
  const dropSim = sectionOf(old);
  const size = sizeSectionOf(old);
  let doc = dropSim ? withSection(report, dropSim) : report;
  if (size) doc = withSizeSection(doc, size);
  return doc;
}
