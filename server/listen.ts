import type { Server } from "node:net";
import { log } from "~/log.server";

/**
 * Listens, or stops the start with one plain line when it cannot (a port in use, an address not on this machine,
 * a low port without the right): never Node's stack of an unhandled 'error' event. `area` prefixes the line,
 * `variables` name the port's and the address's settings.
 */
export function listenOrExit(
  server: Server,
  {
    area,
    port,
    host,
    variables,
  }: { area: string; port: number; host: string | undefined; variables: [string, string] },
): Promise<void> {
  return new Promise<void>((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => {
      log.error(`[${area}] ${listenProblem(error, port, host, variables)}`);
      process.exit(1);
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Why a listener could not start, in one line that names the setting to change. */
export function listenProblem(
  error: NodeJS.ErrnoException,
  port: number,
  host: string | undefined,
  [portVariable, hostVariable]: [string, string],
): string {
  const where = `port ${port} on ${host ?? "every interface"}`;
  if (error.code === "EADDRINUSE") return `${where} is already in use: stop the other server or set ${portVariable}`;
  if (error.code === "EACCES")
    return `${where} needs a privilege this process lacks: set ${portVariable} to 1024 or above`;
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN")
    return `cannot listen on ${host}: it is not an address of this machine: set ${hostVariable}`;
  return `cannot listen on ${where}: ${error.message}`;
}
