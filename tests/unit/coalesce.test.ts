import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { CoalesceChunks } from "~/http/coalesce.server";

function collect(stream: CoalesceChunks): Promise<string[]> {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    stream.on("end", () => resolve(chunks));
    stream.on("error", reject);
  });
}

describe("CoalesceChunks", () => {
  it("passes the writes of one synchronous burst on as a single chunk", async () => {
    const stream = new CoalesceChunks();
    const chunks = collect(stream);
    stream.write("<!DOCTYPE html>");
    stream.write(new Uint8Array(Buffer.from("<html>")));
    stream.write("</html>");
    await nextTurn();
    stream.end();
    expect(await chunks).toEqual(["<!DOCTYPE html><html></html>"]);
  });

  it("keeps streaming: bursts written in later turns go out as their own chunks, in order", async () => {
    const stream = new CoalesceChunks();
    const chunks = collect(stream);
    stream.write("shell ");
    stream.write("content ");
    await nextTurn();
    await nextTurn();
    stream.write("late ");
    stream.write("boundary");
    await nextTurn();
    await nextTurn();
    stream.end();
    expect(await chunks).toEqual(["shell content ", "late boundary"]);
  });

  it("sends what is still pending when the writer ends in the same turn", async () => {
    const stream = new CoalesceChunks();
    const chunks = collect(stream);
    stream.write("a");
    stream.end("b");
    expect(await chunks).toEqual(["ab"]);
  });

  it("rewrites only the first burst when asked to (the whole document, with onAllReady)", async () => {
    const stream = new CoalesceChunks({ rewriteFirstBurst: (text) => text.toUpperCase() });
    const chunks = collect(stream);
    stream.write("<html>");
    stream.write("</html>");
    await nextTurn();
    await nextTurn();
    stream.write("<script>later</script>");
    await nextTurn();
    stream.end();
    expect(await chunks).toEqual(["<HTML></HTML>", "<script>later</script>"]);
  });

  it("sends the first burst as it is when the rewrite throws, and keeps going", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const stream = new CoalesceChunks({
      rewriteFirstBurst: () => {
        throw new Error("unexpected markup");
      },
    });
    const chunks = collect(stream);
    stream.write("<html></html>");
    await nextTurn();
    await nextTurn();
    stream.end("tail");
    expect(await chunks).toEqual(["<html></html>", "tail"]);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});
