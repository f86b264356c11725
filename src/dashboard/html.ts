// HTML by tagged template: every interpolated value is escaped unless it is already
// `Html` (a fragment built the same way). Templates are TypeScript, so the compiler
// checks every field a page reads, and nothing needs copying at build time.
import { escapeHtml } from '../lib/html.js';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

export const raw = (s: string) => new Html(s);
