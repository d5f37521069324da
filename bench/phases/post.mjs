import { loadPhase } from "../lib/load.mjs";
import { machineLoad, sleep } from "../lib/proc.mjs";
import { log } from "../lib/progress.mjs";
import { contactPosts } from "../lib/servers.mjs";

/** Waits (at most 5 s) until the upstream's received count stops moving: posts still in flight have landed. */
async function upstreamSettled(upstream) {
  let last = -1;
  for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
    const { count } = await (await fetch(`${upstream.origin}/__control/count`)).json();
    if (count === last) return;
    last = count;
    await sleep(300);
  }
}

/** Enquiries through the contact action, each with its own message, to the fake upstream; then count arrivals. */
export async function postPhase(site, upstream, options) {
  // Distinct tokens (neither contains the other): the upstream finds the measured enquiries by substring.
  const runToken = `measured-${process.pid}-${Date.now()}`;
  const warmToken = `warmup-${process.pid}-${Date.now()}`;
  const postOptions = (token) =>
    contactPosts((n) => ({
      name: "Bench Visitor",
      email: "bench.visitor@example.com",
      message: `${token} enquiry ${n}: a six-foot pneumatic drop scare for a barn haunt, please.`,
    }));
  log(`POST /contact: ${options.connections} connections, ${options.warmup} s warm-up + ~${options.duration} s`);
  const target = { url: `${site.origin}/contact`, pid: site.pid, connections: options.connections };
  // Warm-up by time, then a fixed number of posts sized from its rate, so every post is answered before we count.
  const warm = await loadPhase({
    ...target,
    name: "warm-up",
    durationS: options.warmup,
    options: postOptions(warmToken),
  });
  await upstreamSettled(upstream);
  await fetch(`${upstream.origin}/__control/clear`, { method: "POST" });
  const amount = Math.min(
    50_000,
    Math.max(options.connections * 4, Math.round(warm.requestsPerSec * options.duration)),
  );
  const result = await loadPhase({
    ...target,
    name: "POST /contact (site -> fake upstream)",
    durationS: options.duration,
    amount,
    options: postOptions(runToken),
  });
  await upstreamSettled(upstream);
  const received = await (
    await fetch(`${upstream.origin}/__control/received?token=${encodeURIComponent(runToken)}`)
  ).json();
  const distinct = new Set(received.map((entry) => entry.body?.message)).size;
  const redirects = result.statusCodes["303"] ?? 0;
  result.enquiries = {
    planned: amount,
    answered303: redirects,
    otherStatuses: Object.fromEntries(Object.entries(result.statusCodes).filter(([code]) => code !== "303")),
    upstreamReceived: received.length,
    distinctMessages: distinct,
    lost: redirects - received.length,
    ok: redirects === received.length && distinct === received.length && redirects === result.completed,
  };
  result.machineLoad1m = machineLoad();
  return result;
}
