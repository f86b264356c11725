#!/usr/bin/env node
// `npm run check:docs` (and the first steps of `npm test`): fails when
// - a generated reference page (scripts/docs-reference.mjs) differs from what `npm run docs`
//   would write now: the page is drawn again in memory and compared with the committed file;
// - a relative link in README.md or docs/**/*.md points at nothing, or at a heading
//   (`file.md#anchor`, `#anchor`) the target does not have. Links to other sites are not followed.
//
// The Markdown is read by a small scanner of our own rather than a parser: the tree holds no
// Markdown library, and the check needs only what these files use — fenced code blocks and code
// spans (skipped), inline links and images, reference definitions, and ATX headings, whose
// anchors are made as GitHub makes them (lower case, punctuation dropped, spaces to hyphens, a
// repeated heading numbered -1, -2, …).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const posix = (p) => p.split(sep).join('/');

/** README.md and every Markdown file under docs/, relative to root. */
export function docFiles(root) {
  const out = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(posix(relative(root, p)));
    }
  };
  walk(join(root, 'docs'));
  return out;
}

/** The text with code blocks, code spans and HTML comments blanked (lengths and lines kept). */
function prose(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  let out = text.replace(/<!--[\s\S]*?-->/g, blank);
  const lines = out.split('\n');
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      lines[i] = blank(lines[i]);
    } else if (m) {
      fence = m[1];
      lines[i] = blank(lines[i]);
    }
  }
  out = lines.join('\n');
  // Code spans: a run of n backticks up to the next run of exactly n.
  return out.replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (m) => blank(m));
}

/** GitHub's anchor for a heading's text. */
export function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text offers. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  const raw = text.split('\n');
  prose(text)
    .split('\n')
    .forEach((line, i) => {
      if (!/^ {0,3}#{1,6}\s/.test(line)) return;
      // The heading as written (code spans count by their content), without the #s and a closing run.
      const text = raw[i]
        .replace(/^ {0,3}#{1,6}\s+/, '')
        .replace(/\s+#+\s*$/, '')
        .replace(/`/g, '');
      const base = slug(text);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    });
  return out;
}

/** The link targets of a Markdown text, with their line numbers. */
export function links(text) {
  const out = [];
  prose(text)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
        out.push({ target: m[1], line: i + 1 });
      const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (def) out.push({ target: def[1], line: i + 1 });
    });
  return out;
}

const external = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Problems with the relative links of the docs: dead files and dead anchors. */
export function deadLinks(root) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsOf = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(file, 'utf8')));
    return anchorCache.get(file);
  };
  for (const doc of docFiles(root)) {
    const from = join(root, doc);
    for (const { target, line } of links(readFileSync(from, 'utf8'))) {
      if (target === '' || external(target)) continue;
      const [pathPart, anchor] = target.split('#', 2);
      let path;
      try {
        path = pathPart === '' ? from : resolve(dirname(from), decodeURIComponent(pathPart.split('?')[0]));
      } catch {
        problems.push(`${doc}:${line}: the link ${target} is not a valid path`);
        continue;
      }
      if (!existsSync(path)) {
        problems.push(
          `${doc}:${line}: the link ${target} points at ${posix(relative(root, path))}, which does not exist`,
        );
        continue;
      }
      if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor.toLowerCase())) {
        problems.push(
          `${doc}:${line}: the link ${target} names #${anchor}, a heading ${posix(relative(root, path))} does not have`,
        );
      }
    }
  }
  return problems;
}

/** Problems with the generated pages: `pages` maps a path (relative to root) to what the generator writes now. */
export function stalePages(root, pages) {
  const problems = [];
  for (const [path, text] of pages) {
    const file = join(root, path);
    if (!existsSync(file)) problems.push(`${path} is missing: run \`npm run docs\` and commit it`);
    else if (readFileSync(file, 'utf8') !== text)
      problems.push(
        `${path} is stale: it differs from what \`npm run docs\` writes now; run it and commit the page`,
      );
  }
  return problems;
}

/** The verdict for the docs under root, given the generated pages as they are drawn now. */
export function checkDocs(root, pages) {
  const problems = [...stalePages(root, pages), ...deadLinks(root)];
  return { ok: problems.length === 0, problems };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const { generateReferencePages } = await import('./docs-reference.mjs');
  let pages;
  try {
    pages = await generateReferencePages(root);
  } catch (err) {
    console.error(`docs check: ${err.message}`);
    process.exit(1);
  }
  const { ok, problems } = checkDocs(root, pages);
  if (ok) {
    console.log(
      `docs check: ${pages.size} generated pages current, every relative link in ${docFiles(root).length} files found`,
    );
  } else {
    console.error(`docs check failed:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}
