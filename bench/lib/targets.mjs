// What a bench run is held to: the pages it weighs, the JS budget and the targets of the load phases.

export const pages = ["/", "/about", "/contact", "/privacy"];
// Issue 5: "at most 100 KB gzipped". KB as 1,024 bytes, the unit Lighthouse reports transfer sizes in; the line below
// the weight table prints the figure in both units, so the SI reading (100,000 bytes) can be checked as well.
export const jsBudgetBytes = 100 * 1024;
// Issue 12: GET / at most 1.3x the server CPU of GET /healthz, at least 0.75x its requests/s, in the same run; brotli
// bytes no larger than before, when the compression middleware sent pages at its default brotli quality (4).
export const targets = { cpuVsHealthzMax: 1.3, rpsVsHealthzMin: 0.75, previousBrotliQuality: 4 };
