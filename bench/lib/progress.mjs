// The run's progress lines on stderr, each with the seconds since the run started.

export const started = Date.now();
export const log = (message) =>
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}\n`);
