#!/usr/bin/env node
// Table ownership check: a table is queried only by the module that owns it, and only in
// that module's repo files (`*.repo.ts`; everything under src/jobs/ for the queue's own
// table). It parses, it does not grep:
// - the TypeScript compiler reads every query-builder call (`selectFrom`, `updateTable`,
//   `insertInto`, `deleteFrom`, `mergeInto`, the joins, `sql.table`), whatever the quoting
//   or line breaks, and resolves a table name held in a constant through the type checker;
//   a name it cannot resolve to string literals fails the check (it fails closed);
// - every `sql` template is rebuilt as SQL text (nested `sql` fragments and `sql.raw` of
//   constants inlined, values as parameters) and read by PostgreSQL's own parser
//   (libpg-query), so comma joins, `left join`s, sub-selects and CTE bodies all count; a
//   template no parse understands fails the check.
// A query outside the rules must be the statement (or declaration) right after a
// `// ownership-exception: <why>` comment; the mark covers that one node and nothing after it.
// Usage: node scripts/check-ownership.mjs [root]   (exit 1 and one line per problem)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadModule, parseSync } from 'libpg-query';
import ts from 'typescript';

/**
 * Which module owns which table, read from the modules' own declarations: each module that owns
 * tables declares them next to its code in `src/modules/<m>/<m>.tables.ts` (`src/jobs/jobs.tables.ts`
 * for the queue, `src/dashboard/dashboard.tables.ts` for the dashboard), in one exported interface named `…Tables` whose properties are the tables it
 * owns (`src/db/database.ts` only composes those interfaces into `Database`). A new table gets its
 * line there with its migration.
 */
export function tableOwners(root) {
  const owners = {};
  const problems = [];
  for (const file of tableFiles(root)) {
    const rel = relative(root, file);
    const mod = moduleOf(rel);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const st of sf.statements) {
      if (!ts.isInterfaceDeclaration(st) || !st.name.text.endsWith('Tables')) continue;
      for (const member of st.members) {
        if (!member.name || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) continue;
        const table = member.name.text;
        if (owners[table] !== undefined && owners[table] !== mod)
          problems.push(`${rel}: table ${table} is declared by ${owners[table]} too`);
        else owners[table] = mod;
      }
    }
  }
  return { owners, problems };
}

/** The tables files: `*.tables.ts` directly in a module's folder or in src/jobs/. */
function tableFiles(root) {
  const out = [];
  const modules = join(root, 'src', 'modules');
  const dirs = [join(root, 'src', 'jobs'), join(root, 'src', 'dashboard')];
  if (existsSync(modules)) for (const m of readdirSync(modules)) dirs.push(join(modules, m));
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) if (name.endsWith('.tables.ts')) out.push(join(dir, name));
  }
  return out.sort();
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The owners declared in this repository (a fixture tree is checked against them). */
export const OWNERS = tableOwners(REPO_ROOT).owners;

/** Builder methods whose first argument names a table (or tables, or `table as alias`). */
const TABLE_METHODS = new Set([
  'selectFrom',
  'updateTable',
  'insertInto',
  'replaceInto',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'crossJoin',
  'crossJoinLateral',
  'using',
]);
const MARK = /\/\/\s*ownership-exception:\s*\S/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The module a file belongs to: `src/modules/<m>/…` → m, `src/jobs/…` → jobs, `src/dashboard/…` → dashboard, else undefined. */
function moduleOf(rel) {
  const parts = rel.split(sep);
  if (parts[0] !== 'src') return undefined;
  if (parts[1] === 'modules') return parts[2];
  if (parts[1] === 'jobs') return 'jobs';
  if (parts[1] === 'dashboard') return 'dashboard';
  return undefined;
}

/** The string literal values an expression can only be, or undefined when it can be anything else. */
function literalValues(checker, node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression?.(node))
    return literalValues(checker, node.expression);
  const type = checker.getTypeAtLocation(node);
  const parts = type.isUnion() ? type.types : [type];
  const values = [];
  for (const t of parts) {
    if (t.isStringLiteral()) values.push(t.value);
    else return undefined;
  }
  return values;
}

/** `sql` as a tag or receiver: the identifier `sql` (imported from kysely). */
const isSqlTag = (node) => ts.isIdentifier(node) && node.text === 'sql';
const sqlHelper = (node, name) =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  isSqlTag(node.expression.expression) &&
  node.expression.name.text === name;

/**
 * A `sql` template as SQL text: nested `sql` fragments and `sql.raw` of constants inlined,
 * `sql.table`/`sql.id`/`sql.ref` as quoted identifiers, every other value as a parameter.
 * `unresolved` collects substitutions that might be SQL text but cannot be read.
 */
function templateText(checker, template, counter, unresolved) {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  let text = template.head.text;
  for (const span of template.templateSpans) {
    text += substitution(checker, span.expression, counter, unresolved) + span.literal.text;
  }
  return text;
}

function substitution(checker, expr, counter, unresolved) {
  if (ts.isTaggedTemplateExpression(expr) && isSqlTag(expr.tag))
    return templateText(checker, expr.template, counter, unresolved);
  if (
    sqlHelper(expr, 'raw') ||
    sqlHelper(expr, 'table') ||
    sqlHelper(expr, 'id') ||
    sqlHelper(expr, 'ref') ||
    sqlHelper(expr, 'lit')
  ) {
    const helper = expr.expression.name.text;
    const values = expr.arguments[0] ? literalValues(checker, expr.arguments[0]) : undefined;
    if (!values || values.length !== 1) {
      unresolved.push(`sql.${helper}(${expr.arguments[0]?.getText() ?? ''})`);
      return helper === 'raw' ? '' : '"unresolved"';
    }
    if (helper === 'raw') return values[0];
    if (helper === 'lit') return `'${values[0].replaceAll("'", "''")}'`;
    return values[0]
      .split('.')
      .map((p) => `"${p}"`)
      .join('.');
  }
  if (sqlHelper(expr, 'join')) return `$${++counter.n}`;
  // A variable holding a `sql` fragment: its own template is checked where it is written;
  // here it stands for an expression.
  return `$${++counter.n}`;
}

/** Every table (relation) a parsed statement names, less its CTE names. */
function relations(tree) {
  const rels = new Set();
  const ctes = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    if (v.RangeVar && typeof v.RangeVar.relname === 'string') rels.add(v.RangeVar.relname);
    if (v.CommonTableExpr && typeof v.CommonTableExpr.ctename === 'string')
      ctes.add(v.CommonTableExpr.ctename);
    for (const k of Object.keys(v)) walk(v[k]);
  };
  walk(tree);
  return [...rels].filter((r) => !ctes.has(r));
}

/** Fragments are read inside the smallest statement that makes them whole. */
const WRAPS = [
  (t) => t,
  (t) => `select * from __fragment where ${t}`,
  (t) => `select ${t}`,
  (t) => `select * ${t}`,
  (t) => `select * from __fragment ${t}`,
  (t) => `select * from __fragment where __x = ${t}`,
  (t) => `select * from __fragment order by ${t}`,
  (t) => `update __fragment set ${t}`,
  (t) => `with ${t} select 1`,
];

function sqlTables(text) {
  for (const wrap of WRAPS) {
    let tree;
    try {
      tree = parseSync(wrap(text));
    } catch {
      continue;
    }
    return relations(tree).filter((r) => r !== '__fragment');
  }
  return undefined;
}

/** The ranges covered by `// ownership-exception:` marks: the one statement or declaration after each. */
function exceptedRanges(sf) {
  const ranges = [];
  const visit = (node) => {
    const text = sf.text;
    for (const c of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
      if (
        MARK.test(text.slice(c.pos, c.end)) &&
        (ts.isStatement(node) || ts.isClassElement(node) || ts.isVariableStatement(node))
      ) {
        ranges.push([node.getStart(sf), node.end]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return ranges;
}

/**
 * The tables files are the lowest layer, wherever they sit: one imports nothing but kysely and
 * `src/db/columns.ts`, and only `src/db/database.ts` and files of its own module import it (the
 * dependency check leaves them out, so this is where that is kept). `Database` declares no
 * table of its own: every table is some module's.
 */
function declarationProblems(root, program, paths) {
  const problems = [];
  const columns = join(root, 'src', 'db', 'columns.ts');
  const database = join(root, 'src', 'db', 'database.ts');
  for (const file of paths) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const rel = relative(root, file);
    const isTables = file.endsWith('.tables.ts');
    for (const st of sf.statements) {
      const spec =
        (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
        st.moduleSpecifier &&
        ts.isStringLiteral(st.moduleSpecifier)
          ? st.moduleSpecifier.text
          : undefined;
      if (spec === undefined) continue;
      const line = sf.getLineAndCharacterOfPosition(st.getStart(sf)).line + 1;
      const target = spec.startsWith('.') ? resolve(dirname(file), spec).replace(/\.js$/, '.ts') : undefined;
      if (isTables && spec !== 'kysely' && target !== columns)
        problems.push(`${rel}:${line}: a tables file imports only kysely and src/db/columns.ts, not ${spec}`);
      if (target?.endsWith('.tables.ts') && file !== database && dirname(target) !== dirname(file)) {
        problems.push(
          `${rel}:${line}: imports another module's tables file ${relative(root, target)}; import its types from src/db/database.ts`,
        );
      }
    }
    if (file === database) {
      for (const st of sf.statements) {
        if (ts.isInterfaceDeclaration(st) && st.name.text === 'Database') {
          for (const m of st.members)
            problems.push(
              `${rel}: Database declares ${m.name?.getText(sf) ?? 'a member'} itself; a table is declared in its module's *.tables.ts`,
            );
        }
      }
    }
  }
  return problems;
}

export async function checkOwnership(root, owners = OWNERS) {
  await loadModule();
  const src = join(root, 'src');
  const paths = files(src).filter((f) => !relative(root, f).split(sep).includes('migrations'));
  const program = ts.createProgram(paths, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const problems = [];
  problems.push(...tableOwners(root).problems, ...declarationProblems(root, program, paths));
  for (const file of paths) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const rel = relative(root, file);
    const mod = moduleOf(rel);
    const isRepo = file.endsWith('.repo.ts') || mod === 'jobs';
    const excepted = exceptedRanges(sf);
    const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const covered = (node) => excepted.some(([a, b]) => node.getStart(sf) >= a && node.end <= b);
    const report = (node, tables) => {
      if (covered(node)) return;
      for (const table of new Set(tables)) {
        const owner = owners[table];
        if (owner === undefined)
          problems.push(
            `${rel}:${lineOf(node)}: table ${table} is declared by no module (src/modules/<m>/<m>.tables.ts)`,
          );
        else if (owner !== mod)
          problems.push(`${rel}:${lineOf(node)}: ${mod ?? rel} queries ${table}, which ${owner} owns`);
        else if (!isRepo) problems.push(`${rel}:${lineOf(node)}: query on ${table} outside a repo file`);
      }
    };
    const fail = (node, why) => {
      if (!covered(node)) problems.push(`${rel}:${lineOf(node)}: ${why}`);
    };
    // CTE names declared by the builder's `with` in this file are not tables.
    const cteNames = new Set();
    const collectCtes = (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        /^with(Recursive)?$/.test(node.expression.name.text) &&
        node.arguments[0]
      ) {
        for (const v of literalValues(checker, node.arguments[0]) ?? []) cteNames.add(v.split('(')[0].trim());
      }
      ts.forEachChild(node, collectCtes);
    };
    collectCtes(sf);

    const visit = (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const arg = node.arguments[0];
        if (TABLE_METHODS.has(method) && arg && !ts.isArrowFunction(arg) && !ts.isFunctionExpression(arg)) {
          const args = ts.isArrayLiteralExpression(arg) ? arg.elements : [arg];
          for (const a of args) {
            // A sub-query (`eb.selectFrom(...).as('x')`) is a call: its own calls are visited.
            if (ts.isCallExpression(a) || ts.isTaggedTemplateExpression(a)) continue;
            const values = literalValues(checker, a);
            if (!values)
              fail(a, `the table of ${method}(${a.getText(sf)}) is not a constant the check can read`);
            else
              report(
                a,
                values.map((v) => v.split(/\s+as\s+/i)[0].trim()).filter((t) => !cteNames.has(t)),
              );
          }
        }
        if (
          sqlHelper(node, 'table') ||
          (method === 'table' &&
            ts.isPropertyAccessExpression(node.expression.expression) &&
            node.expression.expression.name.text === 'dynamic')
        ) {
          const values = arg ? literalValues(checker, arg) : undefined;
          if (!values) fail(node, `the table of ${node.getText(sf)} is not a constant the check can read`);
          else report(node, values);
        }
        if (sqlHelper(node, 'raw') && !(node.parent && ts.isTemplateSpan(node.parent))) {
          const values = arg ? literalValues(checker, arg) : undefined;
          if (!values) fail(node, `sql.raw of a value the check cannot read`);
          else
            for (const v of values) {
              const tables = sqlTables(v);
              if (tables === undefined) fail(node, 'sql.raw text that PostgreSQL’s parser cannot read');
              else report(node, tables);
            }
        }
      }
      if (ts.isTaggedTemplateExpression(node) && isSqlTag(node.tag)) {
        // Nested fragments are read as part of their outermost template.
        const nested =
          node.parent &&
          ts.isTemplateSpan(node.parent) &&
          ts.isTemplateExpression(node.parent.parent) &&
          ts.isTaggedTemplateExpression(node.parent.parent.parent) &&
          isSqlTag(node.parent.parent.parent.tag);
        if (!nested) {
          const unresolved = [];
          const text = templateText(checker, node.template, { n: 0 }, unresolved);
          for (const u of unresolved)
            fail(node, `${u} inside a sql template is not a constant the check can read`);
          const tables = sqlTables(text);
          if (tables === undefined) fail(node, 'a sql template that PostgreSQL’s parser cannot read');
          else
            report(
              node,
              tables.filter((t) => !cteNames.has(t)),
            );
        }
        return; // its substitutions were read with it
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = await checkOwnership(process.argv[2] ?? process.cwd());
  for (const p of problems) console.log(p);
  if (problems.length > 0) {
    console.log(
      `${problems.length} problem${problems.length === 1 ? '' : 's'}: queries outside their owner's repo, or that the check cannot read`,
    );
    process.exit(1);
  }
  console.log("table ownership: every query is in its owner's repo");
}
