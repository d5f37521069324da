/** Liveness for the container's HEALTHCHECK and load balancers: the server is up and rendering requests. */
export function loader() {
  return new Response("ok\n", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
