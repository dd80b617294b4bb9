// `npm run lint:types`: the TypeScript errors of the whole project (tsc --noEmit; vitest does not typecheck),
// then promises nobody handles: an expression statement of Promise type that is not awaited, returned,
// `void`-ed or ended by .catch()/.then(ok, fail), and a Promise used as a condition (always true;
// `Promise | null` is a presence test and passes). Both lose errors and race what follows.
// Exits 1 when it finds any. Usage: node .ci/typecheck.cjs [path regex limiting the promise check]
const ts = require('typescript');
const path = require('node:path');
const root = path.resolve(__dirname, '..');
const cfg = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();
const only = new RegExp(process.argv[2] || '.');

const isPromise = (t) => {
  if (!t) return false;
  if (t.isUnion()) return t.types.some(isPromise);
  const s = t.getSymbol() || t.aliasSymbol;
  return !!s && (s.getName() === 'Promise' || s.getName() === 'PromiseLike');
};
/** x.catch(f) and x.then(f, g) handle the rejection. */
const handled = (e) => {
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return false;
  const name = e.expression.name.text;
  if (name === 'catch' || (name === 'then' && e.arguments.length >= 2)) return true;
  // x.catch(f).finally(g): the chain was handled before finally.
  return name === 'finally' && handled(e.expression.expression);
};
/** Only a promise (not `Promise | null`, where the test asks whether there is one). */
const onlyPromise = (t) => !!t && (t.isUnion() ? t.types.every(onlyPromise) : isPromise(t));

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length) {
  console.log(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  console.log(`${diagnostics.length} type error(s)`);
}

const found = [];
for (const sf of program.getSourceFiles()) {
  if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/')) continue;
  const rel = path.relative(root, sf.fileName);
  if (!only.test(rel)) continue;
  const report = (node) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${rel}:${line + 1}: ${node.getText().slice(0, 100).replace(/\s+/g, ' ')}`);
  };
  const visit = (node) => {
    if (ts.isExpressionStatement(node)) {
      const e = node.expression;
      const assign = ts.isBinaryExpression(e) && e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && e.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
      if (!ts.isAwaitExpression(e) && !ts.isVoidExpression(e) && !assign && !handled(e) && isPromise(checker.getTypeAtLocation(e))) report(e);
    }
    const cond = ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) ? node.expression : ts.isConditionalExpression(node) ? node.condition : ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken ? node.operand : null;
    if (cond && onlyPromise(checker.getTypeAtLocation(cond))) report(cond);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
for (const f of found) console.log(f);
console.log(`${found.length} unhandled or conditional promise(s)`);
process.exit(found.length || diagnostics.length ? 1 : 0);
