// Tokenise texts with a TextMate grammar the way VS Code does (vscode-textmate on the Oniguruma regex engine).
//
//   node tokenize.js GRAMMAR.json < request.json > tokens.json
//
// request.json: {"texts": {"NAME": "text", ...}}. Output: {"NAME": [[line, start, end, [scope, ...]], ...], ...},
// one entry per token that holds more than white space (lines and columns 0-based, columns in UTF-16 units, as
// JavaScript counts them). Used by tests/test_textmate.py; install its packages with `npm ci --prefix tests/textmate`.
"use strict";

const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

async function main() {
  const grammarPath = path.resolve(process.argv[2]);
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  const raw = JSON.parse(fs.readFileSync(grammarPath, "utf8"));
  const grammar = await registry.loadGrammar(raw.scopeName);
  if (!grammar) {
    throw new Error(`the grammar ${grammarPath} did not load`);
  }
  const result = {};
  for (const [name, text] of Object.entries(request.texts)) {
    const tokens = [];
    let stack = textmate.INITIAL;
    text.split("\n").forEach((line, number) => {
      const found = grammar.tokenizeLine(line, stack);
      for (const token of found.tokens) {
        const end = Math.min(token.endIndex, line.length);
        if (line.slice(token.startIndex, end).trim()) {
          tokens.push([number, token.startIndex, end, token.scopes]);
        }
      }
      stack = found.ruleStack;
    });
    result[name] = tokens;
  }
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
