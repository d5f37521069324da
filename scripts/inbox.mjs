#!/usr/bin/env node
// `npm run inbox`: shows the enquiries the embedded back-end stored (one JSON line each in INBOX_FILE), newest first.
// Plain Node, no dependencies, so it runs anywhere the site runs.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";

const defaultFile = "data/enquiries.jsonl";
const fields = ["receivedAt", "name", "email", "message"];

const usage = `Usage: npm run inbox [-- options]

Shows the enquiries stored by the site's embedded back-end, newest first.

Options:
  --json         print a JSON array instead of text
  --csv          print CSV (RFC 4180, header row) for a spreadsheet; cells that a
                 spreadsheet would run as a formula are prefixed with '
  --file PATH    read PATH instead of $INBOX_FILE
  -h, --help     show this help

The file is $INBOX_FILE if set, otherwise ${defaultFile}, relative to the
current directory. Lines that cannot be read are reported on stderr with their
line number and skipped.
`;

function fail(message) {
  process.stderr.write(`inbox: ${message}\nTry 'npm run inbox -- --help'.\n`);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      json: { type: "boolean", default: false },
      csv: { type: "boolean", default: false },
      file: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: false,
  }));
} catch (error) {
  fail(error.message);
}
if (options.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (options.json && options.csv) fail("choose one of --json and --csv");

const file = options.file || process.env.INBOX_FILE || defaultFile;
const format = options.json ? "json" : options.csv ? "csv" : "text";

// Quietly stop when the reader goes away (e.g. `npm run inbox | head`).
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

/** Reads the file; null when it does not exist yet. */
async function readInbox(path) {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return null;
    process.stderr.write(`inbox: cannot read ${path}: ${error.message}\n`);
    process.exit(1);
  }
}

/** The enquiries in file order; unreadable lines go to stderr with their line number. */
function parseLines(text) {
  const enquiries = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const number = index + 1;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      process.stderr.write(`inbox: ${file}:${number}: skipped, not valid JSON\n`);
      return;
    }
    const missing =
      typeof record !== "object" || record === null || Array.isArray(record)
        ? fields
        : fields.filter((field) => typeof record[field] !== "string");
    if (missing.length > 0) {
      process.stderr.write(`inbox: ${file}:${number}: skipped, not an enquiry (missing ${missing.join(", ")})\n`);
      return;
    }
    const time = Date.parse(record.receivedAt);
    enquiries.push({ enquiry: Object.fromEntries(fields.map((field) => [field, record[field]])), time, number });
  });
  return enquiries;
}

/** Newest first; an unreadable date sorts last; ties keep the later line first. */
function newestFirst(a, b) {
  const ta = Number.isNaN(a.time) ? -Infinity : a.time;
  const tb = Number.isNaN(b.time) ? -Infinity : b.time;
  return tb - ta || b.number - a.number;
}

// Visitors write the text: keep their control characters (e.g. terminal escape sequences) off the operator's terminal.
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const visible = (value) => value.replace(controls, "\uFFFD");

function formatDate(receivedAt, time) {
  if (Number.isNaN(time)) return visible(receivedAt);
  return `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function asText(entries) {
  const count = `${entries.length} ${entries.length === 1 ? "enquiry" : "enquiries"}`;
  const blocks = entries.map(({ enquiry, time }) => {
    const oneLine = (value) => visible(value.replace(/\s*[\r\n]+\s*/g, " "));
    const body = visible(enquiry.message.replace(/\r\n?/g, "\n"))
      .split("\n")
      .map((line) => (line ? `    ${line}` : ""))
      .join("\n");
    return `${formatDate(enquiry.receivedAt, time)}  ${oneLine(enquiry.name)} <${oneLine(enquiry.email)}>\n${body}\n`;
  });
  return `${count} in ${file}, newest first\n\n${blocks.join("\n")}`;
}

/** A CSV cell: formula-looking text neutralised with a leading ', then quoted when it must be (RFC 4180). */
function csvCell(value) {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function asCsv(entries) {
  const rows = [fields, ...entries.map(({ enquiry }) => fields.map((field) => enquiry[field]))];
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

const text = await readInbox(file);
const entries = text === null ? [] : parseLines(text).sort(newestFirst);

if (entries.length === 0) {
  const note =
    text === null
      ? `No enquiries yet (${file} does not exist).`
      : text.trim() === ""
        ? `No enquiries yet (${file} is empty).`
        : `No readable enquiries in ${file}.`;
  // Machine formats stay valid on stdout; the note goes to stderr for them.
  if (format === "json") process.stdout.write("[]\n");
  if (format === "csv") process.stdout.write(asCsv([]));
  (format === "text" ? process.stdout : process.stderr).write(`${note}\n`);
} else if (format === "json") {
  process.stdout.write(`${JSON.stringify(entries.map(({ enquiry }) => enquiry), null, 2)}\n`);
} else if (format === "csv") {
  process.stdout.write(asCsv(entries));
} else {
  process.stdout.write(asText(entries));
}
