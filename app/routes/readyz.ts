import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * Readiness for load balancers and orchestrators: 200 while this instance can take enquiries, 503 while its inbox
 * database cannot be reached (the pages still work; /healthz says the process lives). With API_HOST set there is
 * no database to ask.
 */
const answer = (status: number, text: string) =>
  new Response(`${text}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export async function loader({ context }: LoaderFunctionArgs) {
  if (context.services.config.apiHost) return answer(200, "ok");
  try {
    await context.services.inbox().ping();
    return answer(200, "ok");
  } catch {
    return answer(503, "database unavailable");
  }
}
