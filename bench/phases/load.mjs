import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { decode, getRaw } from "../lib/bytes.mjs";
import { memory, stopChild } from "../lib/proc.mjs";
import { ratio } from "../lib/report.mjs";
import { root, startBaseline, startSite } from "../lib/servers.mjs";
import { targets } from "../lib/targets.mjs";
import { getPhase } from "./get.mjs";
import { postPhase } from "./post.mjs";

/** GET / in brotli as the site sends it, against the same page compressed as the compression middleware did before. */
async function brotliBytes(origin) {
  const br = await getRaw(`${origin}/`, { "Accept-Encoding": "br" });
  const plain = await getRaw(`${origin}/`, { "Accept-Encoding": "identity" });
  if (String(br.headers["content-encoding"]) !== "br") throw new Error("GET / did not answer in brotli");
  const html = decode(plain.body, String(plain.headers["content-encoding"] ?? ""));
  const before = brotliCompressSync(html, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: targets.previousBrotliQuality },
  });
  return { site: br.body.length, before: before.length, sameBody: decode(br.body, "br").equals(html) };
}

/** The targets, from the phases of this one run. */
function checkTargets(ratios, brotli) {
  const cpu = { ratio: ratios.siteVsHealthzCpu, max: targets.cpuVsHealthzMax };
  const rps = { ratio: ratios.siteVsHealthzRps, min: targets.rpsVsHealthzMin };
  cpu.ok = cpu.ratio <= cpu.max;
  rps.ok = rps.ratio >= rps.min;
  const bytes = { ...brotli, ok: brotli.sameBody && brotli.site <= brotli.before };
  return { cpu, rps, brotli: bytes, ok: cpu.ok && rps.ok && bytes.ok };
}

/**
 * The same GET / and POST /contact load on a second server started with Node's default heap settings (no flags), so
 * the peak memory with and without `npm start`'s flags is measured side by side in one run.
 */
export async function nodeDefaultsPhase(upstream, options) {
  const other = await startSite({ cwd: root, label: "node-defaults", apiHost: upstream.origin, nodeFlags: [] });
  const get = await getPhase("GET / site, Node's default heap", `${other.origin}/`, other.pid, options);
  const post = await postPhase(other, upstream, options);
  const peak = memory(other.pid);
  await stopChild(other.child);
  return { get, post, memory: peak };
}

/** The load phases, one after another on the same servers: baseline, site, site uncompressed, healthz, posts. */
export async function loadPhases(site, upstream, options) {
  const baseline = await startBaseline(site.origin);
  const baselinePhase = await getPhase("GET / baseline", `${baseline.origin}/`, baseline.pid, options);
  const sitePhase = await getPhase("GET / site", `${site.origin}/`, site.pid, options);
  const identityPhase = await getPhase("GET / site uncompressed", `${site.origin}/`, site.pid, options, "identity");
  const healthzPhase = await getPhase("GET /healthz site", `${site.origin}/healthz`, site.pid, options);
  const post = await postPhase(site, upstream, options);
  const memoryAfter = { site: memory(site.pid), baseline: memory(baseline.pid) };
  await stopChild(baseline.child);
  const ratios = {
    siteVsBaselineRps: ratio(sitePhase.requestsPerSec, baselinePhase.requestsPerSec),
    healthzVsBaselineRps: ratio(healthzPhase.requestsPerSec, baselinePhase.requestsPerSec),
    siteVsHealthzRps: ratio(sitePhase.requestsPerSec, healthzPhase.requestsPerSec),
    siteVsHealthzCpu: ratio(sitePhase.serverCpuMsPerRequest, healthzPhase.serverCpuMsPerRequest),
    siteVsBaselineCpu: ratio(sitePhase.serverCpuMsPerRequest, baselinePhase.serverCpuMsPerRequest),
    healthzVsBaselineCpu: ratio(healthzPhase.serverCpuMsPerRequest, baselinePhase.serverCpuMsPerRequest),
    siteMinusHealthzCpuMs: sitePhase.serverCpuMsPerRequest - healthzPhase.serverCpuMsPerRequest,
    compressedMinusUncompressedCpuMs: sitePhase.serverCpuMsPerRequest - identityPhase.serverCpuMsPerRequest,
  };
  return {
    encoding: baseline.variants[0].contentEncoding,
    baselineVariants: baseline.variants,
    baseline: baselinePhase,
    site: sitePhase,
    siteUncompressed: identityPhase,
    healthz: healthzPhase,
    post,
    ratios,
    targets: checkTargets(ratios, await brotliBytes(site.origin)),
    memory: memoryAfter,
  };
}
