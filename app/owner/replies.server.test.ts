import { describe, expect, it } from "vitest";
import { judgeReply } from "~/owner/replies.server";
import { repliesCopy } from "~/wording/replies";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the Reply form's fields", () => {
  it("takes a one-line subject (trimmed) and a message (line ends made \\n)", () => {
    expect(judgeReply(form({ subject: "  Re: hi ", message: "Hello\r\nthere" }))).toEqual({
      subject: "Re: hi",
      message: "Hello\nthere",
    });
  });

  it("refuses what is missing, too long or on two lines, giving back what was typed", () => {
    expect(judgeReply(form({ subject: "", message: "" }))).toEqual({
      subject: "",
      message: "",
      problems: [
        { field: "reply-subject", text: repliesCopy.subjectMissing },
        { field: "reply-message", text: repliesCopy.messageMissing },
      ],
    });
    expect(judgeReply(form({ subject: "a\nb", message: "x" }))).toMatchObject({
      subject: "a\nb",
      problems: [{ field: "reply-subject", text: repliesCopy.subjectLines }],
    });
    expect(judgeReply(form({ subject: "s".repeat(201), message: "🎃".repeat(10_001) }))).toMatchObject({
      problems: [
        { field: "reply-subject", text: repliesCopy.subjectTooLong(201) },
        { field: "reply-message", text: repliesCopy.messageTooLong(10_001) },
      ],
    });
    // Characters, not UTF-16 units: 10,000 pumpkins fit.
    expect(judgeReply(form({ subject: "s".repeat(200), message: "🎃".repeat(10_000) }))).not.toHaveProperty("problems");
  });
});
