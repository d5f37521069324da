import { describe, expect, it } from "vitest";
import { stagesAhead } from "~/enquiry/build-page.server";

describe("the stages still to come on a build page", () => {
  it("are the won stages after the current one", () => {
    expect(stagesAhead("deposit")).toEqual(["building", "delivered"]);
    expect(stagesAhead("building")).toEqual(["delivered"]);
  });

  it("are none once Delivered, and none for a lost commission", () => {
    expect(stagesAhead("delivered")).toEqual([]);
    expect(stagesAhead("lost")).toEqual([]);
  });

  it("lead from a stage set back before Deposit paid to all of the build", () => {
    expect(stagesAhead("quoted")).toEqual(["deposit", "building", "delivered"]);
  });
});
