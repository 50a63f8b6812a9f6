// Starts `plumb lsp` for .pipe files. `npm install` in this folder fetches vscode-languageclient;
// then run the folder as an extension (F5) or package it with `vsce package`.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("plumb").get("command", "plumb");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "plumb",
    "Plumb",
    { run: server, debug: server },
    { documentSelector: [{ language: "pipe" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
