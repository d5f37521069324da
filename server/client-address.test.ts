import type { IncomingMessage } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { setLogFormat } from "~/log.server";
import { requestAddress } from "./client-address";

const request = (ip: string | undefined, peer = "10.0.0.2") =>
  ({ ip, socket: { remoteAddress: peer } }) as unknown as IncomingMessage & { ip?: string };

describe("requestAddress", () => {
  it("believes an IPv4 or IPv6 address from the trusted proxy, and the connection's own address", () => {
    expect(requestAddress(request("203.0.113.7"))).toBe("203.0.113.7");
    expect(requestAddress(request("2001:db8::9"))).toBe("2001:db8::9");
    expect(requestAddress(request("::ffff:192.0.2.1"))).toBe("::ffff:192.0.2.1");
    expect(requestAddress(request(undefined))).toBe("10.0.0.2");
  });

  it("uses the connection's address for anything else, and says so once per process without the value", () => {
    setLogFormat("text"); // warnings in text go to stderr, as console.error
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const text of ["<!channel> [click me](http://evil.example)", "127.1", "unknown", "1.2.3.4:80", ""]) {
      expect(requestAddress(request(text))).toBe("10.0.0.2");
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[proxy\] X-Forwarded-For held something that is not an IP/);
    expect(String(warn.mock.calls[0]![0])).not.toContain("evil");
    warn.mockRestore();
  });
});
