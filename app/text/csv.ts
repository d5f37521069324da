import { csvCell } from "~/text/safety";

const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(",")}\r\n`;

/**
 * CSV (RFC 4180, CRLF line ends) a line at a time, so a large inbox is written in constant memory: the header row, then
 * one row per item, every cell through csvCell (no visitor's text runs as a spreadsheet formula). The inbox's export
 * and `npm run inbox -- --csv`.
 */
export async function* csvLines<T>(
  columns: readonly string[],
  items: AsyncIterable<T>,
  cellsOf: (item: T) => readonly string[],
): AsyncGenerator<string> {
  yield csvRow(columns);
  for await (const item of items) yield csvRow(cellsOf(item));
}
