// Build the extension's .vsix (and install it in VS Code with --install), with nothing but node and npm:
//
//   node grammar/vscode/package.js             writes grammar/vscode/tharsis-VERSION.vsix
//   node grammar/vscode/package.js --install   ... and runs `code --install-extension` on it
//   node grammar/vscode/package.js --out FILE  writes FILE instead
//
// A .vsix is a zip: `extension/` holds the extension folder as VS Code installs it (package.json, extension.js,
// language-configuration.json, README.md, the runtime packages under node_modules/), with the TextMate grammar
// grammar/tharsis.tmLanguage.json as syntaxes/tharsis.tmLanguage.json; `extension.vsixmanifest` and
// `[Content_Types].xml` describe it. The packages come from package-lock.json (`npm ci --omit=dev`, run here
// when node_modules/ is missing). No vsce, no build step: zip is written by hand below (deflate from zlib).
"use strict";

const childProcess = require("child_process");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const HERE = __dirname;
const GRAMMAR = path.join(HERE, "..", "tharsis.tmLanguage.json");
const FILES = ["package.json", "extension.js", "language-configuration.json", "README.md"];

function main(argv) {
  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, "package.json"), "utf8"));
  const outIndex = argv.indexOf("--out");
  const out = outIndex >= 0 ? path.resolve(argv[outIndex + 1]) :
    path.join(HERE, `${manifest.name}-${manifest.version}.vsix`);
  if (!fs.existsSync(path.join(HERE, "node_modules", "vscode-languageclient"))) {
    run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], HERE);
  }
  // In the repository the grammar is grammar/tharsis.tmLanguage.json, beside this folder; inside the package it
  // moves in, and the packaged package.json says so.
  for (const grammar of manifest.contributes.grammars) {
    grammar.path = `./syntaxes/${path.basename(grammar.path)}`;
  }
  const entries = [["extension/package.json", Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8")]];
  for (const file of FILES.filter((name) => name !== "package.json")) {
    entries.push([`extension/${file}`, fs.readFileSync(path.join(HERE, file))]);
  }
  entries.push(["extension/syntaxes/tharsis.tmLanguage.json", fs.readFileSync(GRAMMAR)]);
  for (const file of walk(path.join(HERE, "node_modules"))) {
    entries.push([`extension/${path.relative(HERE, file).split(path.sep).join("/")}`, fs.readFileSync(file)]);
  }
  entries.unshift(["extension.vsixmanifest", Buffer.from(vsixManifest(manifest), "utf8")]);
  entries.unshift(["[Content_Types].xml", Buffer.from(contentTypes(entries.map(([name]) => name)), "utf8")]);
  fs.writeFileSync(out, zip(entries));
  console.log(`wrote ${path.relative(process.cwd(), out) || out} (${entries.length} files)`);
  if (argv.includes("--install")) {
    run(process.platform === "win32" ? "code.cmd" : "code", ["--install-extension", out, "--force"], HERE);
    console.log("installed: reload VS Code's window (Developer: Reload Window) and open a .mars file");
  }
}

function run(command, args, cwd) {
  const result = childProcess.spawnSync(command, args, { cwd, stdio: "inherit", shell: process.platform === "win32" });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit status ${result.status}`;
    console.error(`package.js: ${command} ${args.join(" ")} failed (${why})`);
    if (command.startsWith("code")) {
      console.error("install the .vsix by hand: VS Code > Extensions > ... > Install from VSIX...");
    }
    process.exit(1);
  }
}

function* walk(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      yield* walk(full);
    } else if (entry.isFile() && entry.name !== ".package-lock.json") {
      yield full;
    }
  }
}

function escapeXml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function vsixManifest(manifest) {
  return `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">
  <Metadata>
    <Identity Language="en-US" Id="${escapeXml(manifest.name)}" Version="${escapeXml(manifest.version)}" Publisher="${escapeXml(manifest.publisher)}" />
    <DisplayName>${escapeXml(manifest.displayName)}</DisplayName>
    <Description xml:space="preserve">${escapeXml(manifest.description)}</Description>
    <Categories>${escapeXml(manifest.categories.join(","))}</Categories>
    <Properties>
      <Property Id="Microsoft.VisualStudio.Code.Engine" Value="${escapeXml(manifest.engines.vscode)}" />
    </Properties>
  </Metadata>
  <Installation>
    <InstallationTarget Id="Microsoft.VisualStudio.Code" />
  </Installation>
  <Dependencies />
  <Assets>
    <Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" />
    <Asset Type="Microsoft.VisualStudio.Services.Content.Details" Path="extension/README.md" Addressable="true" />
  </Assets>
</PackageManifest>
`;
}

function contentTypes(names) {
  const known = { ".json": "application/json", ".js": "application/javascript", ".md": "text/markdown",
    ".vsixmanifest": "text/xml", ".xml": "text/xml" };
  const extensions = [...new Set(names.map((name) => path.posix.extname(name)).filter((ext) => ext))].sort();
  const defaults = extensions.map((ext) =>
    `<Default Extension="${escapeXml(ext)}" ContentType="${known[ext] || "application/octet-stream"}" />`);
  return `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${defaults.join("")}</Types>
`;
}

// ------------------------------------------------------------------------------------------------ zip

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

function crc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// A zip archive of [name, contents] entries, deflated, with a fixed date (the same input gives the same bytes).
function zip(entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  const dosTime = 0;
  const dosDate = (2020 - 1980) << 9 | 1 << 5 | 1;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);          // version needed
    local.writeUInt16LE(0x0800, 6);      // flags: UTF-8 names
    local.writeUInt16LE(8, 8);           // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, nameBytes, deflated);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);         // version made by
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(dosTime, 12);
    header.writeUInt16LE(dosDate, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(deflated.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + deflated.length;
  }
  const centralSize = central.reduce((size, part) => size + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

main(process.argv.slice(2));
