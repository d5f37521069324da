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

/** For storage: control characters other than tab and line breaks dropped (applied before length checks). */
export const withoutControls = (value: string): string => value.replace(storedControls, "");

/** For a one-line place (a subject, a chat summary): no line breaks or control characters, cut with an ellipsis. */
export function oneLine(text: string, maxLength = 120): string {
  const flat = text.replace(inlineUnsafe, " ").replace(/\s+/g, " ").trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

/** For a message body: line breaks made \n, other control and bidi characters removed. */
export const multiLine = (text: string): string => text.replace(/\r\n?/g, "\n").replace(blockUnsafe, "");

/** For a terminal or a spreadsheet cell: unsafe characters shown as U+FFFD (so their presence is visible). */
export const visible = (value: string): string => value.replace(displayUnsafe, "\uFFFD");

/** For JSON text: unsafe characters written as \u escapes, so the data stays exact but shows nothing unsafe. */
export const escapedUnsafe = (json: string): string =>
  json.replace(displayUnsafe, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
