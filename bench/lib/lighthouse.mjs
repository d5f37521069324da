// Lighthouse (mobile preset: the default config, simulated throttling) against the built site, driving the system
// Chromium through chrome-launcher. A fresh browser per run so no run warms the next one's cache.
// lighthouse and chrome-launcher are imported on first use: `--no-lighthouse` runs never load them.

export const categories = ["performance", "accessibility", "best-practices", "seo"];

const chromeFlags = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const metricIds = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  si: "speed-index",
};

export const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Audits that did not pass (score below 1 on a scored audit), with their one-line result. */
function flagged(lhr) {
  const scoredModes = new Set(["binary", "numeric", "metricSavings"]);
  return Object.values(lhr.audits)
    .filter((audit) => scoredModes.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1)
    .map((audit) => ({ id: audit.id, title: audit.title, score: audit.score, displayValue: audit.displayValue ?? "" }));
}

function lcpElement(lhr) {
  const items = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
  const node = items[0]?.items?.[0]?.node;
  return node ? { selector: node.selector, snippet: node.snippet, label: node.nodeLabel } : null;
}

function summarise(lhr) {
  return {
    scores: Object.fromEntries(categories.map((id) => [id, Math.round((lhr.categories[id]?.score ?? NaN) * 100)])),
    metrics: Object.fromEntries(
      Object.entries(metricIds).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? NaN]),
    ),
    lcpElement: lcpElement(lhr),
    layoutShifts: lhr.audits["layout-shifts"]?.details?.items?.length ?? 0,
    totalByteWeight: lhr.audits["total-byte-weight"]?.numericValue ?? NaN,
    flagged: flagged(lhr),
    runtimeError: lhr.runtimeError?.message,
    runWarnings: lhr.runWarnings ?? [],
  };
}

/** One Lighthouse run with its own Chromium, bounded by timeoutMs. */
async function runOnce(url, { chromePath, timeoutMs, extraHeaders }) {
  const [{ launch }, { default: lighthouse }] = await Promise.all([import("chrome-launcher"), import("lighthouse")]);
  const chrome = await launch({ chromePath, chromeFlags, logLevel: "silent" });
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse run on ${url} took over ${timeoutMs} ms`)), timeoutMs);
    });
    const result = await Promise.race([
      lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: categories,
        extraHeaders,
      }),
      timeout,
    ]);
    if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`);
    return { ...summarise(result.lhr), lhr: result.lhr };
  } finally {
    clearTimeout(timer);
    chrome.kill();
  }
}

/** One page's runs (e.g. a logged-in page: `extraHeaders: { Cookie }`), summarised as lighthouseSides does. */
export async function lighthousePage(url, { runs = 1, chromePath, timeoutMs = 90_000, extraHeaders, saveReport } = {}) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    all.push(await runOnce(url, { chromePath, timeoutMs, extraHeaders }).catch((error) => ({ error: error.message })));
  }
  return aggregate(new URL(url).pathname, all, saveReport);
}

/** Medians, LCP element and flagged audits of one page's runs. */
function aggregate(path, all, saveReport) {
  const good = all.filter((run) => !run.error && !run.runtimeError);
  const scores = Object.fromEntries(categories.map((id) => [id, median(good.map((run) => run.scores[id]))]));
  const metrics = Object.fromEntries(
    Object.keys(metricIds).map((key) => [key, median(good.map((run) => run.metrics[key]))]),
  );
  // The representative run: performance score nearest the median, then LCP nearest the median.
  const representative = good
    .slice()
    .sort(
      (a, b) =>
        Math.abs(a.scores.performance - scores.performance) - Math.abs(b.scores.performance - scores.performance) ||
        Math.abs(a.metrics.lcp - metrics.lcp) - Math.abs(b.metrics.lcp - metrics.lcp),
    )[0];
  // Every audit flagged in any run, with how many runs flagged it.
  const flaggedCounts = new Map();
  for (const run of good) {
    for (const audit of run.flagged) {
      const entry = flaggedCounts.get(audit.id) ?? { ...audit, runs: 0 };
      entry.runs += 1;
      flaggedCounts.set(audit.id, entry);
    }
  }
  // The full report of the representative run, for the Lighthouse viewer; the summary keeps the rest.
  const report = representative && saveReport ? saveReport(path, representative.lhr) : undefined;
  for (const run of all) delete run.lhr;
  return {
    runs: all.length,
    okRuns: good.length,
    scores,
    metrics,
    lcpElement: representative?.lcpElement ?? null,
    report,
    maxCls: Math.max(...good.map((run) => run.metrics.cls)),
    flagged: [...flaggedCounts.values()],
    errors: all.filter((run) => run.error || run.runtimeError).map((run) => run.error ?? run.runtimeError),
    all,
  };
}

/**
 * Runs Lighthouse `runs` times on each page of each side ({ name: origin }), interleaving pages and sides (and
 * alternating the side order every round) so that a noisy minute on a shared machine hits everything alike.
 * Returns { [side]: { [path]: medians, LCP element, flagged audits } }.
 */
export async function lighthouseSides(
  sides,
  paths,
  { runs, chromePath, timeoutMs = 90_000, onProgress = () => {}, saveReport },
) {
  const names = Object.keys(sides);
  const collected = Object.fromEntries(
    names.map((name) => [name, Object.fromEntries(paths.map((path) => [path, []]))]),
  );
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? names : names.slice().reverse();
    for (const path of paths) {
      for (const name of order) {
        const url = new URL(path, sides[name]).href;
        try {
          collected[name][path].push(await runOnce(url, { chromePath, timeoutMs }));
        } catch (error) {
          collected[name][path].push({ error: String(error?.message ?? error) });
        }
        onProgress(`lighthouse ${names.length > 1 ? `${name} ` : ""}${path} run ${round + 1}/${runs}`);
      }
    }
  }
  return Object.fromEntries(
    names.map((name) => [
      name,
      Object.fromEntries(
        paths.map((path) => [
          path,
          aggregate(path, collected[name][path], saveReport && ((p, lhr) => saveReport(name, p, lhr))),
        ]),
      ),
    ]),
  );
}
