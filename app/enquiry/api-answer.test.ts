import { describe, expect, it } from "vitest";
import { enquiryMessages } from "~/wording";
import {
  browserFailureText,
  formatErrors,
  maxErrorTextLength,
  maxShownErrors,
  readErrorList,
  statusText,
  type Outcome,
} from "~/enquiry/api-answer";

describe("statusText: every row of the status table", () => {
  it.each([200, 201, 204])("a %i (sent) shows the thank-you", (status) => {
    expect(statusText({ kind: "sent", status })).toBe("Thank you! We will contact you soon.");
    expect(statusText({ kind: "sent", status })).toBe(enquiryMessages.success);
  });

  it("a failure with an errors list shows Error: then each title: detail, space separated", () => {
    const outcome: Outcome = {
      kind: "rejected",
      status: 400,
      errors: [
        { title: "Security", detail: "Wrong answer" },
        { title: "Email", detail: "Invalid" },
      ],
    };
    expect(statusText(outcome)).toBe("Error: Security: Wrong answer Email: Invalid");
  });

  it("a failure without an errors list shows the generic failure", () => {
    expect(statusText({ kind: "failed", status: 500 })).toBe("Failed to send message.");
    expect(statusText({ kind: "failed", status: 302 })).toBe(enquiryMessages.genericFailure);
  });

  it("an unreachable upstream and a timeout show their own plain-words texts, never the thank-you", () => {
    const unreachable = statusText({ kind: "unreachable", error: "TypeError: fetch failed (ECONNREFUSED)" });
    const timeout = statusText({ kind: "timeout" });
    expect(unreachable).toBe(enquiryMessages.unreachable);
    expect(timeout).toBe(enquiryMessages.timeout);
    for (const text of [unreachable, timeout]) {
      expect(text).not.toBe(enquiryMessages.success);
      expect(text).not.toBe(enquiryMessages.genericFailure);
    }
    expect(unreachable).toMatch(/not sent/);
    // A late answer does not mean the enquiry was lost: the upstream may have stored it.
    expect(timeout).not.toMatch(/not sent/);
    expect(timeout).toMatch(/may have/);
    // The technical error is for the log, not for the visitor.
    expect(unreachable).not.toContain("ECONNREFUSED");
  });
});

describe("formatErrors", () => {
  it("joins each title: detail after the prefix", () => {
    expect(formatErrors([{ title: "Name", detail: "Required" }])).toBe("Error: Name: Required");
  });

  it("shows whichever half is present when the other is empty", () => {
    expect(
      formatErrors([
        { title: "Security", detail: "" },
        { title: "", detail: "Try again" },
      ]),
    ).toBe("Error: Security Try again");
  });
});

describe("readErrorList: reading an upstream body defensively", () => {
  it("reads a list of {title, detail}", () => {
    expect(readErrorList({ errors: [{ title: "Email", detail: "Invalid" }] })).toEqual([
      { title: "Email", detail: "Invalid" },
    ]);
  });

  it("keeps items missing a title or a detail, and drops items with neither", () => {
    const body = { errors: [{ title: "Security" }, { detail: "Too long" }, {}, { title: "", detail: "  " }] };
    expect(readErrorList(body)).toEqual([
      { title: "Security", detail: "" },
      { title: "", detail: "Too long" },
    ]);
  });

  it("trims text, accepts numbers and ignores other value types", () => {
    const body = {
      errors: [
        { title: "  Code ", detail: 42 },
        { title: { nested: true }, detail: ["x"] },
        { title: null, detail: true },
      ],
    };
    expect(readErrorList(body)).toEqual([{ title: "Code", detail: "42" }]);
  });

  it("skips items that are not objects", () => {
    expect(
      readErrorList({ errors: ["Bad", 3, null, [{ title: "a" }], { title: "Email", detail: "Invalid" }] }),
    ).toEqual([{ title: "Email", detail: "Invalid" }]);
  });

  it.each([
    ["null (not JSON)", null],
    ["a string", "errors"],
    ["a number", 400],
    ["an array", [{ title: "x", detail: "y" }]],
    ["an object without errors", { message: "Bad request" }],
    ["errors that is not an array", { errors: { title: "x", detail: "y" } }],
    ["errors as a string", { errors: "Invalid" }],
    ["an empty errors array", { errors: [] }],
    ["an errors array with no usable item", { errors: [{}, null, "x"] }],
  ])("gives null (the generic failure) for %s", (_label, body) => {
    expect(readErrorList(body)).toBeNull();
  });
});

describe("browserFailureText", () => {
  it("a failed connection (fetch rejects with a TypeError) says so in plain words", () => {
    for (const message of ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"]) {
      expect(browserFailureText(new TypeError(message))).toBe(enquiryMessages.browserConnectionFailed);
    }
  });

  it("an answer that is not our site's (a proxy's 502 or 413 page) is a plain failure, not the framework's words", () => {
    const text = browserFailureText(
      new Error("Unable to decode turbo-stream response from URL: http://x/contact.data"),
    );
    expect(text).toBe(enquiryMessages.browserUnreadableAnswer);
    expect(text).not.toMatch(/turbo-stream|decode|contact\.data/);
  });

  it.each([
    ["an object", { status: 502, statusText: "Bad Gateway" }],
    ["a string", "offline"],
    ["null", null],
    ["undefined", undefined],
    ["a number", 413],
    [
      "an object whose toString throws",
      {
        toString: () => {
          throw new Error("no");
        },
      },
    ],
  ])("a thrown non-Error value (%s) never renders as [object Object] or as the raw value", (_label, value) => {
    const text = browserFailureText(value);
    expect(text).toBe(enquiryMessages.browserUnreadableAnswer);
    expect(text).not.toContain("[object");
  });

  it("every browser-side status says the message may not have been sent and what to do", () => {
    for (const text of [enquiryMessages.browserConnectionFailed, enquiryMessages.browserUnreadableAnswer]) {
      expect(text).toMatch(/may not have been sent/);
      expect(text).toMatch(/try again/);
      expect(text).not.toBe(enquiryMessages.success);
    }
  });
});

describe("readErrorList: what is shown stays short", () => {
  it(`keeps at most ${maxShownErrors} entries, each title and detail at most ${maxErrorTextLength} characters`, () => {
    const errors = readErrorList({
      errors: Array.from({ length: 50 }, () => ({ title: "T".repeat(5_000), detail: "D".repeat(5_000) })),
    });
    expect(errors).toHaveLength(maxShownErrors);
    for (const error of errors!) {
      expect(error.title.length).toBeLessThanOrEqual(maxErrorTextLength);
      expect(error.detail.length).toBeLessThanOrEqual(maxErrorTextLength);
      expect(error.detail.endsWith("…")).toBe(true);
    }
  });
});
