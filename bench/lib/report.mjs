// Plain-text tables for the terminal.

export const kB = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} kB` : "-");
export const MB = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : "-");

export function num(value, digits = 0) {
  if (!Number.isFinite(value)) return "-";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
}

/** Renders rows (arrays of strings) under a header, right-aligning every column but the first. */
export function table(header, rows) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell ?? "")));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0)));
  const line = (row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
  return [line(all[0]), widths.map((width) => "-".repeat(width)).join("  "), ...all.slice(1).map(line)].join("\n");
}
