// A GST document as a one-page A4 PDF (pdfkit), with the same sections as the HTML page.
// The PDF uses the standard Helvetica font, which covers Windows-1252 only: the rupee sign
// is written "Rs." and any other character outside it as "?" (the HTML and JSON forms keep
// every text as given).
import type { GstDocument } from './document.js';
import { documentSections, TEST_MODE_NOTICE } from './document.view.js';

// The characters Windows-1252 gives 0x80–0x9F.
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text Helvetica can show: the rupee sign as "Rs.", anything else outside Windows-1252 as "?". */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text.replace(/₹\s?/g, 'Rs. ')) {
    const code = ch.codePointAt(0)!;
    out +=
      (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(ch)
        ? ch
        : code === 0x0a
          ? ' '
          : '?';
  }
  return out;
}

const LABEL_WIDTH = 170;

/**
 * pdfkit (with its fonts) is loaded on the first document, not at start: most processes never
 * draw one, and it would stay in their heap for good.
 */
export async function renderDocumentPdf(doc: GstDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const sections = documentSections(doc);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: pdfSafe(`${sections[0]!.heading} ${doc.number}`),
      Author: pdfSafe(doc.supplier.legalName),
      CreationDate: new Date(doc.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  if (doc.testMode)
    pdf
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#b00020')
      .text(TEST_MODE_NOTICE)
      .fillColor('black')
      .moveDown(0.5);
  for (const [i, section] of sections.entries()) {
    pdf
      .font('Helvetica-Bold')
      .fontSize(i === 0 ? 18 : 12)
      .text(pdfSafe(section.heading), left, pdf.y);
    pdf.moveDown(0.3);
    pdf.fontSize(10);
    for (const [label, value] of section.rows) {
      const y = pdf.y;
      pdf.font('Helvetica-Bold').text(pdfSafe(`${label}:`), left, y, { width: LABEL_WIDTH - 10 });
      const labelBottom = pdf.y;
      pdf.font('Helvetica').text(pdfSafe(value), left + LABEL_WIDTH, y, { width: width - LABEL_WIDTH });
      pdf.y = Math.max(pdf.y, labelBottom);
    }
    pdf.moveDown(0.8);
  }
  pdf.end();
  return done;
}
