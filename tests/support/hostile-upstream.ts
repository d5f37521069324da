import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

/**
 * An enquiry API that misbehaves in ways the fake upstream's scripts cannot: an answer far too large to keep, one that
 * sends its headers and then nothing, one with an errors list too long to show. A real HTTP server on 127.0.0.1.
 */
export type HostileMode = "huge-title" | "stall-after-headers" | "many-errors";

export async function startHostileUpstream(mode: HostileMode) {
  const requests: IncomingHttpHeaders[] = [];
  let bytesSent = 0;
  const open = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push(req.headers);
      open.add(res);
      res.on("close", () => open.delete(res));
      if (mode === "stall-after-headers") {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.write('{"errors": [');
        return; // and nothing more
      }
      if (mode === "many-errors") {
        // Under the 64 KiB read limit, so it is read whole: the cap on what is shown does the work.
        const errors = Array.from({ length: 100 }, (_, i) => ({ title: `Field ${i}`, detail: "d".repeat(500) }));
        res.writeHead(400, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ errors }));
      }
      // huge-title: a 400 whose errors list carries a 100 MB title, written as fast as the reader takes it.
      res.writeHead(400, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let left = 100 * 1024 * 1024;
      const write = () => {
        while (left > 0 && !res.destroyed) {
          left -= chunk.length;
          bytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        if (!res.destroyed) res.end('"}]}');
      };
      res.write('{"errors": [{"title": "');
      write();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    origin,
    /** The headers of every request received. */
    requests,
    /** Bytes of the huge answer written so far (the reader's pace, plus what socket buffers hold). */
    bytesSent: () => bytesSent,
    close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
