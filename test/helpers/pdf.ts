// Reads a PDF back as text with poppler's `pdftotext` (Debian's poppler-utils; .ci/run
// installs it), keeping the layout so a label and its value stay on one line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The value printed after `label:` at the start of a line, spaces collapsed; with `after`,
 * the first such line below the line that reads `after` (a section's heading).
 */
export function field(text: string, label: string, after?: string): string | undefined {
  let lines = text.split('\n');
  if (after !== undefined) {
    const start = lines.findIndex((l) => l.trim() === after);
    if (start < 0) return undefined;
    lines = lines.slice(start + 1);
  }
  for (const [i, line] of lines.entries()) {
    const at = line.indexOf(`${label}:`);
    if (at < 0 || line.slice(0, at).trim() !== '') continue;
    const rest = line.slice(at + label.length + 1);
    const column = at + label.length + 1 + (rest.length - rest.trimStart().length);
    const parts = [rest.trim()];
    // A long value wraps onto lines indented to its column.
    for (const next of lines.slice(i + 1)) {
      const indent = next.length - next.trimStart().length;
      if (next.trim() === '' || indent < column - 1) break;
      parts.push(next.trim());
    }
    return parts.join(' ').replace(/\s+/g, ' ');
  }
  return undefined;
}
