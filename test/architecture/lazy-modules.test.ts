// Libraries few processes ever use are loaded when first used, not at start: a static import
// would keep them (their code, fonts and the source text V8 holds for it) in every process's heap
// for good, which the resident memory in BENCHMARKS.md pays for. pdfkit draws GST documents,
// passkit-generator signs Apple Wallet passes, otplib checks two-factor codes, csv-stringify
// writes exports. The real tree passes; a planted static import fails.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const LAZY = ['pdfkit', 'passkit-generator', 'otplib', 'csv-stringify'];

/** A static value import of `name` (`import x from 'name'`, `import 'name'`, `export … from 'name'`); `import type` is erased and allowed. */
export function staticImportOf(source: string, name: string): boolean {
  const quoted = `['"]${name.replace(/[-/]/g, '\\$&')}['"]`;
  const statement = new RegExp(
    `^\\s*(import|export)\\s+(?!type\\b)[^;]*?\\bfrom\\s+${quoted}|^\\s*import\\s+${quoted}`,
    'm',
  );
  return statement.test(source);
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('pdfkit, passkit-generator, otplib and csv-stringify are imported only where used, by import()', () => {
  const offenders = files('src').flatMap((f) => {
    const s = readFileSync(f, 'utf8');
    return LAZY.filter((m) => staticImportOf(s, m)).map((m) => `${f}: ${m}`);
  });
  assert.deepEqual(offenders, []);
});

test('the check sees a planted static import, and passes import() and import type', () => {
  assert.equal(staticImportOf("import PDFDocument from 'pdfkit';\n", 'pdfkit'), true);
  assert.equal(staticImportOf("import {\n  PKPass,\n} from 'passkit-generator';", 'passkit-generator'), true);
  assert.equal(staticImportOf('export { PKPass } from "passkit-generator";', 'passkit-generator'), true);
  assert.equal(staticImportOf("import 'pdfkit';", 'pdfkit'), true);
  assert.equal(staticImportOf("const { default: P } = await import('pdfkit');", 'pdfkit'), false);
  assert.equal(staticImportOf("import type PDFKit from 'pdfkit';", 'pdfkit'), false);
});
