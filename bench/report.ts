// Writes one benchmark's section into BENCHMARKS.md, keeping the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

export function writeSection(name: string, body: string): void {
  const file = 'BENCHMARKS.md';
  const header = '# Benchmarks\n\nWritten by `npm run bench` (each script replaces its own section). Every figure is compared with a ceiling measured in the same run on the same machine.\n';
  let text = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z`;
  const section = `${start}\n${body.trim()}\n\nMachine: ${machine}.\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  text = re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, text);
}
