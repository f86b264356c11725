#!/usr/bin/env node
// Table ownership check: a table is queried only by the module that owns it, and only in
// that module's repo files (`*.repo.ts`). A query elsewhere must sit in a region marked
// `// ownership-exception: <why>` (a hot path that reads or writes several modules'
// tables in one statement); the mark covers the next top-level declaration.
// Usage: node scripts/check-ownership.mjs [root]   (exit 1 and one line per stray query)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Which module owns which table. A new table gets its line here with its migration. */
export const OWNERS = {
  users: 'accounts',
  email_verifications: 'accounts',
  api_keys: 'keys',
  events: 'events',
  seat_counters: 'events',
  registrations: 'registrations',
  attendees: 'registrations',
  promo_codes: 'registrations',
  plans: 'memberships',
  memberships: 'memberships',
  webhook_configs: 'webhooks',
  webhook_deliveries: 'webhooks',
  sandbox_clocks: 'sandbox',
  sandbox_subscriptions: 'sandbox',
  sandbox_orders: 'sandbox',
  sandbox_payments: 'sandbox',
  sandbox_emails: 'sandbox',
  jobs: 'jobs',
  broadcasts: 'broadcast',
  broadcast_recipients: 'broadcast',
  ledger_entries: 'ledger',
  payouts: 'payouts',
  payout_contacts: 'payouts',
  payout_fund_accounts: 'payouts',
  dashboard_sessions: 'dashboard',
  gateway_orders: 'reconciliation',
  reconcile_lease: 'reconciliation',
};

const BUILDER = /\b(?:selectFrom|updateTable|insertInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'([a-z_]+)(?:\s+as\s+[a-z_]+)?'/g;
const RAW = /\b(?:from|join|update|into)\s+([a-z_]+)\b/gi;
const MARK = /\/\/\s*ownership-exception:\s*\S/;
// The end of a top-level declaration: a line at column 0 closing it.
const END = /^(?:\}|\);?|`;|\];?)\s*$/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The module a file belongs to: `src/modules/<m>/…` → m, `src/jobs/…` → jobs, else undefined. */
function moduleOf(rel) {
  const parts = rel.split(sep);
  if (parts[0] !== 'src') return undefined;
  if (parts[1] === 'modules') return parts[2];
  if (parts[1] === 'jobs') return 'jobs';
  return undefined;
}

export function checkOwnership(root, owners = OWNERS) {
  const problems = [];
  const src = join(root, 'src');
  for (const file of files(src)) {
    const rel = relative(root, file);
    if (rel.split(sep).includes('migrations')) continue;
    const mod = moduleOf(rel);
    const isRepo = file.endsWith('.repo.ts') || mod === 'jobs';
    const lines = readFileSync(file, 'utf8').split('\n');
    let excepted = false;
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (MARK.test(line)) excepted = true;
      if (!excepted) {
        const tables = new Set();
        for (const m of code.matchAll(BUILDER)) tables.add(m[1]);
        if (/\bsql`|^\s+(?:select|with|update|insert|delete|from|join)\b/i.test(code) || code.includes('`')) {
          for (const m of code.matchAll(RAW)) if (m[1].toLowerCase() in owners) tables.add(m[1].toLowerCase());
        }
        for (const table of tables) {
          const owner = owners[table];
          if (owner === undefined) problems.push(`${rel}:${i + 1}: table ${table} has no owner in scripts/check-ownership.mjs`);
          else if (owner !== mod) problems.push(`${rel}:${i + 1}: ${mod ?? rel} queries ${table}, which ${owner} owns`);
          else if (!isRepo) problems.push(`${rel}:${i + 1}: query on ${table} outside a repo file`);
        }
      }
      if (excepted && END.test(line)) excepted = false;
    });
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkOwnership(process.argv[2] ?? process.cwd());
  for (const p of problems) console.log(p);
  if (problems.length > 0) {
    console.log(`${problems.length} quer${problems.length === 1 ? 'y' : 'ies'} outside their owner's repo`);
    process.exit(1);
  }
  console.log('table ownership: every query is in its owner\'s repo');
}
