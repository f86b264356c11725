// Who calls a function, found by the TypeScript compiler over src/: every reference to the
// declared symbol (a call, or the function handed on as a value), named by the file and the
// function around it. Imports and re-exports are not callers. The state-change tests use it
// to prove that a primitive is reached only through its one function.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

export interface SourceIndex {
  /** `file#function` of every reference to `name` declared in `file` (paths relative to the root, with `/`). */
  callers(file: string, name: string): string[];
  /** `file#function` of every call of the method `method` of the interface or class `type` declared in `file`. */
  methodCallers(file: string, type: string, method: string): string[];
  /** Whether `file` exports `name`. */
  exports(file: string, name: string): boolean;
}

let cached: SourceIndex | undefined;

export function sourceIndex(root = process.cwd()): SourceIndex {
  if (cached) return cached;
  const paths = files(join(root, 'src'));
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
  const rel = (f: string) => relative(root, f).split(sep).join('/');

  const enclosing = (node: ts.Node): string => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name) return n.name.getText();
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
      )
        return n.name.text;
    }
    return '<top level>';
  };
  const canonical = (s: ts.Symbol): ts.Symbol => {
    let symbol = s;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return checker.getExportSymbolOfSymbol(symbol);
  };
  /** Uses of identifiers spelled `name` that resolve to `target` (only those are resolved: cheap). */
  const usesOf = (target: ts.Symbol, name: string): string[] => {
    const out: string[] = [];
    for (const sf of program.getSourceFiles()) {
      if (sf.isDeclarationFile || !paths.includes(sf.fileName) || !sf.text.includes(name)) continue;
      const visit = (node: ts.Node): void => {
        if (
          ts.isIdentifier(node) &&
          node.text === name &&
          !ts.isImportSpecifier(node.parent) &&
          !ts.isExportSpecifier(node.parent)
        ) {
          const symbol = checker.getSymbolAtLocation(node);
          const isDeclaration =
            (node.parent as ts.NamedDeclaration).name === node && !ts.isPropertyAccessExpression(node.parent);
          if (symbol && !isDeclaration && canonical(symbol) === target)
            out.push(`${rel(sf.fileName)}#${enclosing(node)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    return out;
  };
  const symbolOf = (file: string, name: string): ts.Symbol => {
    const sf = program.getSourceFile(join(root, file));
    if (!sf) throw new Error(`no source file ${file}`);
    const found = checker
      .getSymbolsInScope(sf, ts.SymbolFlags.Function | ts.SymbolFlags.Variable)
      .find((s) => s.name === name && s.declarations?.some((d) => d.getSourceFile() === sf));
    if (!found) throw new Error(`${file} declares no ${name}`);
    return canonical(found);
  };
  cached = {
    callers: (file, name) => [...new Set(usesOf(symbolOf(file, name), name))].sort(),
    methodCallers: (file, type, method) => {
      const sf = program.getSourceFile(join(root, file));
      if (!sf) throw new Error(`no source file ${file}`);
      const decl = sf.statements.find(
        (st): st is ts.InterfaceDeclaration | ts.ClassDeclaration =>
          (ts.isInterfaceDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === type,
      );
      const memberDecl = decl?.members.find(
        (m) => m.name !== undefined && ts.isIdentifier(m.name) && m.name.text === method,
      );
      const member = memberDecl?.name && checker.getSymbolAtLocation(memberDecl.name);
      if (!member) throw new Error(`${file} declares no ${type}.${method}`);
      return [...new Set(usesOf(member, method))].sort();
    },
    exports: (file, name) => {
      const sf = program.getSourceFile(join(root, file));
      const mod = sf && checker.getSymbolAtLocation(sf);
      return mod !== undefined && checker.getExportsOfModule(mod).some((s) => s.name === name);
    },
  };
  return cached;
}
