import { afterEach, describe, expect, it, vi } from "vitest";
import { enquiryMessages } from "~/wording";
import { EnquiryRateLimiter } from "~/enquiry/rate-limit.server";
import { clientKey } from "~/http/rate-limit.server";

describe("clientKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:cb00:7107", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002::ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["not an address", "not an address"],
  ])("%s counts as %s", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe("EnquiryRateLimiter (in memory)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("admits so many per minute for the site, then refuses until the window has passed", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = new EnquiryRateLimiter({ sitePerMinute: 3, clientPerHour: 0 });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.take(undefined)).toBeNull();
      vi.advanceTimersByTime(10_000);
    }
    const refused = await limiter.take(undefined);
    expect(refused?.error).toEqual({
      title: enquiryMessages.rateLimitedTitle,
      detail: enquiryMessages.rateLimitedSite,
    });
    expect(refused?.retryAfterSeconds).toBe(30);
    vi.advanceTimersByTime(30_001);
    expect(await limiter.take(undefined)).toBeNull();
  });

  it("admits so many per hour per client, IPv6 by its /64 and IPv4-mapped as IPv4; an unknown client is not limited", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = new EnquiryRateLimiter({ sitePerMinute: 0, clientPerHour: 2 });
    expect(await limiter.take("203.0.113.1")).toBeNull();
    expect(await limiter.take("::ffff:203.0.113.1")).toBeNull();
    for (let i = 0; i < 3; i++)
      expect((await limiter.take("203.0.113.1"))?.error.detail).toBe(enquiryMessages.rateLimitedClient);
    expect(await limiter.take("203.0.113.2")).toBeNull();
    // One host of a /64 choosing a new address for each enquiry is still one client.
    expect(await limiter.take("2001:db8:aa:bb::1")).toBeNull();
    expect(await limiter.take("2001:db8:aa:bb:ffff:1:2:3")).toBeNull();
    expect(await limiter.take("2001:db8:aa:bb::99")).not.toBeNull();
    expect(await limiter.take("2001:db8:aa:bc::1")).toBeNull();
    for (let i = 0; i < 5; i++) expect(await limiter.take(undefined)).toBeNull();
    vi.advanceTimersByTime(60 * 60_000 + 1);
    expect(await limiter.take("203.0.113.1")).toBeNull();
  });

  it("a client over its own limit does not use up the site's allowance", async () => {
    const limiter = new EnquiryRateLimiter({ sitePerMinute: 2, clientPerHour: 1 });
    expect(await limiter.take("a")).toBeNull();
    expect((await limiter.take("a"))?.error.detail).toBe(enquiryMessages.rateLimitedClient);
    expect((await limiter.take("a"))?.error.detail).toBe(enquiryMessages.rateLimitedClient);
    expect(await limiter.take("b")).toBeNull();
    expect((await limiter.take("c"))?.error.detail).toBe(enquiryMessages.rateLimitedSite);
  });

  it("0 turns both limits off", async () => {
    const limiter = new EnquiryRateLimiter({ sitePerMinute: 0, clientPerHour: 0 });
    for (let i = 0; i < 1_000; i++) expect(await limiter.take("a")).toBeNull();
  });
});
