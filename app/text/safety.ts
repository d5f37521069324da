/**
 * Every clean-up of text a visitor wrote, in one place. Visitors' words reach a database (PostgreSQL refuses NUL), the
 * owner's e-mail headers and chat messages (a line break or a bidi override there changes what the owner reads) and
 * terminals and spreadsheets (control characters move the cursor). Each function says where its output may go.
 */

// eslint-disable-next-line no-control-regex -- C0 controls except tab and line breaks, and DEL: nobody types them
const storedControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- C0 (all), DEL, C1, line/paragraph separators, bidi overrides/isolates
const inlineUnsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;
// eslint-disable-next-line no-control-regex -- the same less tab and line feed: a body keeps its lines
const blockUnsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- what a terminal or spreadsheet must not get, plus the Arabic letter mark and LRM/RLM
const displayUnsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`): a mail client decodes them in headers, into any character at all (a line
 * break, a bidi override). A space after the opening `=` and before the closing `=` leaves them inert and readable.
 */
const encodedWord = /=\?[^?\s]*\?[BbQq]\?[^?\s]*\?=/g;
const inertEncodedWords = (text: string): string => text.replace(encodedWord, (word) => `= ${word.slice(1, -1)} =`);

/** For storage: control characters other than tab and line breaks dropped (applied before length checks). */
export const withoutControls = (value: string): string => value.replace(storedControls, "");

/**
 * For a one-line place (a subject, a chat summary): no line breaks, control characters or encoded words, cut with an
 * ellipsis on a code point (never half a surrogate pair).
 */
export function oneLine(text: string, maxLength = 120): string {
  const flat = inertEncodedWords(text.replace(inlineUnsafe, " ").replace(/\s+/g, " ").trim());
  if (flat.length <= maxLength) return flat;
  let cut = flat.slice(0, maxLength - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** For a message body: line breaks made \n, other control and bidi characters removed, encoded words inert. */
export const multiLine = (text: string): string =>
  inertEncodedWords(text.replace(/\r\n?/g, "\n").replace(blockUnsafe, ""));

/** For a terminal or a spreadsheet cell: unsafe characters shown as U+FFFD (so their presence is visible). */
export const visible = (value: string): string => value.replace(displayUnsafe, "\uFFFD");

/** For JSON text: unsafe characters written as \u escapes, so the data stays exact but shows nothing unsafe. */
export const escapedUnsafe = (json: string): string =>
  json.replace(displayUnsafe, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * For a CSV cell a spreadsheet opens: unsafe characters shown as U+FFFD, formula-looking text (= + - @, a leading tab
 * or CR) given a leading ', then quoted when it holds , ; " or a line break. Every CSV line: app/text/csv.ts.
 */
export function csvCell(value: string): string {
  const cell = visible(value);
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  // A tab is quoted too: a spreadsheet that guesses the separator splits at tabs.
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * For an owner's web page, in text and in attributes: line breaks kept (as \n), every other control, bidi and
 * direction-mark character shown as U+FFFD, as the CLI does, so "Bob\u202Egnp.exe" never reads as "Bobexe.png".
 */
export const onOwnerPage = (text: string): string => visible(text.replace(/\r\n?/g, "\n"));
