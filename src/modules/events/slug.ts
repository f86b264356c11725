// Event slugs: derived from the title once, at creation.
import type { Ids } from '../../lib/ids.js';

export function slugify(title: string, fallback = 'event'): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return s === '' ? fallback : s;
}

export function slugSuffix(ids: Ids): string {
  return ids
    .secret(9)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 6)
    .padEnd(6, '0');
}
