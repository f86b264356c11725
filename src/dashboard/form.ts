// Reading urlencoded form bodies: every field has a maximum length, numbers are
// numbers or a 400 naming the field, and times without an offset are India time.
import { badRequest } from '../lib/errors.js';

export type FormBody = Record<string, string | string[]>;

export function parseForm(body: string): FormBody {
  const out: FormBody = Object.create(null);
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export class Form {
  constructor(private readonly body: FormBody) {}

  /** The field, trimmed; '' when absent. */
  text(name: string, label: string, max: number): string {
    const raw = this.body[name];
    const v = (Array.isArray(raw) ? raw[0] : raw) ?? '';
    if (v.length > max) throw badRequest('invalid_field', `${label} must be at most ${max} characters`);
    return v.trim();
  }

  required(name: string, label: string, max: number): string {
    const v = this.text(name, label, max);
    if (v === '') throw badRequest('invalid_field', `${label} is required`);
    return v;
  }

  optional(name: string, label: string, max: number): string | undefined {
    const v = this.text(name, label, max);
    return v === '' ? undefined : v;
  }

  number(name: string, label: string, fallback?: number): number {
    const v = this.text(name, label, 30);
    if (v === '' && fallback !== undefined) return fallback;
    const n = Number(v);
    if (v === '' || !Number.isFinite(n)) throw badRequest('invalid_field', `${label} must be a number`);
    return n;
  }

  integer(name: string, label: string, fallback?: number): number {
    const n = this.number(name, label, fallback);
    if (!Number.isInteger(n) || n < 0)
      throw badRequest('invalid_field', `${label} must be a whole number, 0 or more`);
    return n;
  }

  checked(name: string): boolean {
    return this.body[name] !== undefined;
  }

  all(name: string): string[] {
    const raw = this.body[name];
    return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  }

  /** A datetime-local value (no offset) is India time; anything else goes to the service as written. */
  instant(name: string, label: string): string | undefined {
    const v = this.optional(name, label, 40);
    if (v === undefined) return undefined;
    return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) ? `${v}+05:30` : v;
  }
}
