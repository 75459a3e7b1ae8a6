// The VS Code extension for Tharsis card files: it starts `tharsis lsp` and lets vscode-languageclient speak the
// Language Server Protocol with it. Colours come from the TextMate grammar (package.json, `contributes.grammars`)
// until the server's semantic tokens arrive. Plain JavaScript: no build step (see README.md).
"use strict";

const fs = require("fs");
const path = require("path");
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

// The `tharsis` command: the setting, else a project's own virtual environment, else `tharsis` on PATH.
function serverCommand() {
  const configured = vscode.workspace.getConfiguration("tharsis").get("server.path");
  if (configured) {
    return configured;
  }
  const inVenv = process.platform === "win32"
    ? [".venv", "Scripts", "tharsis.exe"]
    : [".venv", "bin", "tharsis"];
  for (const folder of vscode.workspace.workspaceFolders || []) {
    const candidate = path.join(folder.uri.fsPath, ...inVenv);
    if (fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return "tharsis";
}

async function activate(context) {
  const command = serverCommand();
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient("tharsis", "Tharsis", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "tharsis" },
      { scheme: "untitled", language: "tharsis" },
    ],
  });
  context.subscriptions.push(vscode.commands.registerCommand("tharsis.restartServer", () => client.restart()));
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `Tharsis: could not start the language server with "${command} lsp" (${error.message || error}). ` +
      "Install it with: pip install 'tharsis[lsp]', or set tharsis.server.path.");
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
