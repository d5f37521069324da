import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { StoreUnavailableError } from "~/store/sql.server";
import type { InboxStore } from "~/store/store.types";
import { asOperator, inboxStore } from "./gate.server";

const contextWith = (inbox: () => InboxStore): AppLoadContext =>
  ({ services: { config: parseConfig({}), inbox } }) as unknown as AppLoadContext;

const request = new Request("http://localhost/inbox", { headers: { Cookie: `inbox_session=${"a".repeat(43)}` } });

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("the gate: an outage is a 503 with a plain message, never the error page's 500", () => {
  it("when the database is not open", () => {
    const context = contextWith(() => {
      throw new StoreUnavailableError("not open");
    });
    let error: unknown;
    try {
      inboxStore(context);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(503);
  });

  it("when a call fails part-way through a page's work; other errors and results pass through", async () => {
    const store = {
      useSession: () =>
        Promise.resolve({ operator: { id: "o", email: "owner@example.com" }, stage: "full", factorAt: null }),
      folderCounts: () => Promise.reject(new StoreUnavailableError("timed out")),
      getEnquiry: () => Promise.reject(new TypeError("a bug")),
      markRead: () => Promise.resolve(true),
    } as unknown as InboxStore;
    const args = { request, context: contextWith(() => store) };
    const outage = await thrown(asOperator(args, (_args, session) => session.store.folderCounts("")));
    expect(outage).toBeInstanceOf(Response);
    expect((outage as Response).status).toBe(503);
    expect(await (outage as Response).text()).toMatch(/not reachable right now/);
    expect(await thrown(asOperator(args, (_args, session) => session.store.getEnquiry("x")))).toBeInstanceOf(TypeError);
    expect(await asOperator(args, (_args, session) => session.store.markRead("x", "owner@example.com"))).toBe(true);
  });
});
