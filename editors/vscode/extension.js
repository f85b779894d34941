// Starts `playtest lsp` for rule files; everything else (diagnostics, hover, completion,
// navigation, rename, quick fixes) comes from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("playtest");
  const command = config.get("command") || "playtest";
  const lang = config.get("language") || (vscode.env.language.startsWith("ja") ? "ja" : "en");
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "playtest-rules" }],
    initializationOptions: { lang },
  };
  client = new LanguageClient("playtest", "playtest rules", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
