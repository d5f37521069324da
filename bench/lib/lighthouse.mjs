// Lighthouse (mobile preset: the default config, simulated throttling) against the built site, driving the system
// Chromium through chrome-launcher. A fresh browser per run so no run warms the next one's cache.
// lighthouse and chrome-launcher are imported on first use: `--no-lighthouse` runs never load them.

export const categories = ["performance", "accessibility", "best-practices", "seo"];

export const chromeFlags = [
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
    metrics: Object.fromEntries(Object.entries(metricIds).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? NaN])),
    lcpElement: lcpElement(lhr),
    layoutShifts: lhr.audits["layout-shifts"]?.details?.items?.length ?? 0,
    totalByteWeight: lhr.audits["total-byte-weight"]?.numericValue ?? NaN,
    flagged: flagged(lhr),
    runtimeError: lhr.runtimeError?.message,
    runWarnings: lhr.runWarnings ?? [],
  };
}

/** One Lighthouse run with its own Chromium, bounded by timeoutMs. */
async function runOnce(url, { chromePath, timeoutMs }) {
  const [{ launch }, { default: lighthouse }] = await Promise.all([import("chrome-launcher"), import("lighthouse")]);
  const chrome = await launch({ chromePath, chromeFlags, logLevel: "silent" });
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse run on ${url} took over ${timeoutMs} ms`)), timeoutMs);
    });
    const result = await Promise.race([
      lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories }),
      timeout,
    ]);
    if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`);
    return summarise(result.lhr);
  } finally {
    clearTimeout(timer);
    chrome.kill();
  }
}

/**
 * Runs Lighthouse `runs` times on each page (pages interleaved, so a noisy minute hits all pages alike) and returns,
 * per page, the median of every category score and metric, the LCP element and the flagged audits of the median run.
 */
export async function lighthousePages(origin, paths, { runs, chromePath, timeoutMs = 90_000, onProgress = () => {} }) {
  const perPage = new Map(paths.map((path) => [path, []]));
  for (let round = 0; round < runs; round++) {
    for (const path of paths) {
      const url = new URL(path, origin).href;
      try {
        perPage.get(path).push(await runOnce(url, { chromePath, timeoutMs }));
      } catch (error) {
        perPage.get(path).push({ error: String(error?.message ?? error) });
      }
      onProgress(`lighthouse ${path} run ${round + 1}/${runs}`);
    }
  }
  const pages = {};
  for (const [path, all] of perPage) {
    const good = all.filter((run) => !run.error && !run.runtimeError);
    const scores = Object.fromEntries(categories.map((id) => [id, median(good.map((run) => run.scores[id]))]));
    const metrics = Object.fromEntries(Object.keys(metricIds).map((key) => [key, median(good.map((run) => run.metrics[key]))]));
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
    pages[path] = {
      runs: all.length,
      okRuns: good.length,
      scores,
      metrics,
      lcpElement: representative?.lcpElement ?? null,
      maxCls: Math.max(...good.map((run) => run.metrics.cls)),
      flagged: [...flaggedCounts.values()],
      errors: all.filter((run) => run.error || run.runtimeError).map((run) => run.error ?? run.runtimeError),
      all,
    };
  }
  return pages;
}
