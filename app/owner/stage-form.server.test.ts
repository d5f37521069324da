import { describe, expect, it } from "vitest";
import { readNote, readStageForm, type StageFormValues } from "~/owner/stage-form.server";
import { lostReasons, stages } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";

const site = { services: ["Scenic design and building"], currency: "USD" };
const typed = (fields: Partial<StageFormValues>): StageFormValues => ({
  stage: "new",
  lostReason: "",
  quoteAmount: "",
  quoteValidUntil: "",
  depositAmount: "",
  neededBy: "",
  service: "",
  revision: "0",
  ...fields,
});
const errors = pipelineCopy.form.errors;

describe("the stage form", () => {
  it("names every stage and lost reason in the owner's words", () => {
    expect(Object.keys(pipelineCopy.stages)).toEqual([...stages]);
    expect(Object.keys(pipelineCopy.lostReasons)).toEqual([...lostReasons]);
  });

  it("reads a stage with what it carries: amounts in cents, days, a service of the site", () => {
    expect(
      readStageForm(
        typed({
          stage: "deposit",
          quoteAmount: "$2,400",
          depositAmount: "600.5",
          neededBy: "2027-09-30",
          quoteValidUntil: "2027-01-31",
          service: "Scenic design and building",
          revision: "7",
        }),
        site,
      ),
    ).toEqual({
      ok: true,
      revision: 7,
      change: {
        stage: "deposit",
        lostReason: null,
        quoteAmount: 240_000,
        quoteValidUntil: "2027-01-31",
        depositAmount: 60_050,
        neededBy: "2027-09-30",
        service: "Scenic design and building",
      },
    });
  });

  it("drops a lost reason outside Lost and keeps it for Lost", () => {
    const other = readStageForm(typed({ stage: "building", lostReason: "price" }), site);
    expect(other.ok && other.change.lostReason).toBeNull();
    const lost = readStageForm(typed({ stage: "lost", lostReason: "elsewhere" }), site);
    expect(lost.ok && lost.change.lostReason).toBe("elsewhere");
  });

  it("says what each stage needs and what is wrong with each field, all at once", () => {
    expect(readStageForm(typed({ stage: "quoted" }), site)).toEqual({
      ok: false,
      errors: { quoteAmount: errors.quoteRequired },
    });
    expect(readStageForm(typed({ stage: "deposit" }), site)).toEqual({
      ok: false,
      errors: { depositAmount: errors.depositRequired },
    });
    expect(
      readStageForm(
        typed({
          stage: "lost",
          quoteAmount: "lots",
          neededBy: "2027-13-01",
          quoteValidUntil: "31/01/2027",
          service: "Pony rides",
        }),
        site,
      ),
    ).toEqual({
      ok: false,
      errors: {
        lostReason: errors.lostReason,
        quoteAmount: errors.amount,
        neededBy: errors.date,
        quoteValidUntil: errors.date,
        service: errors.service,
      },
    });
    expect(readStageForm(typed({ stage: "won" }), site)).toMatchObject({ ok: false, errors: { stage: errors.stage } });
    expect(readStageForm(typed({ revision: "x" }), site)).toMatchObject({
      ok: false,
      errors: { revision: errors.stale },
    });
  });

  it("reads a note: trimmed, line ends as LF, refused when empty or too long", () => {
    expect(readNote("  Called.\r\nWants fog.  ")).toEqual({ ok: true, text: "Called.\nWants fog." });
    expect(readNote(" \n ")).toEqual({ ok: false, error: pipelineCopy.note.empty });
    expect(readNote("x".repeat(5_001))).toMatchObject({ ok: false });
  });
});
