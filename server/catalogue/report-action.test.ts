import { describe, expect, it } from "vitest";
import { REPORT_MESSAGE_MAX } from "../../domain/work-queue";
import { reportListingAction } from "./report-action";

/** A refused report is answered before the database is touched: no database is needed here. */
async function refusal(fields: Record<string, string>) {
  const form = new FormData();
  form.set("intent", "report");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const answer = (await reportListingAction(
    new Request("http://localhost/location/x", { method: "POST" }),
    "P",
    form,
  )) as {
    data: { report: string; message: string; values: Record<string, string> };
    init: ResponseInit | null;
  };
  return { status: answer.init?.status, ...answer.data };
}

describe("reportListingAction", () => {
  it("asks for the kind of problem when none or an unknown one is chosen, keeping the details typed", async () => {
    for (const kind of [undefined, "", "pizza"]) {
      expect(await refusal({ ...(kind === undefined ? {} : { kind }), message: "It rings a pizza place." })).toEqual({
        status: 400,
        report: "error",
        message: "Choose what is wrong with the listing.",
        values: { kind: kind ?? "", message: "It rings a pizza place." },
      });
    }
  });

  it("refuses details over the limit with the limit in words", async () => {
    const answer = await refusal({ kind: "wrong_phone", message: "x".repeat(REPORT_MESSAGE_MAX + 1) });
    expect(answer.message).toBe(`Keep the details under ${REPORT_MESSAGE_MAX.toLocaleString("en-US")} characters.`);
  });
});
