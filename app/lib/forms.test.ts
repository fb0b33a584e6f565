import { describe, expect, it } from "vitest";
import { formStateOf, isFormFailure } from "./forms";

const failure = {
  ok: false as const,
  fieldErrors: { name: ["Enter a name."] },
  formError: "Fix the fields below.",
  values: { name: "", amenities: ["gated", "power"], intent: "rename" },
};

describe("formStateOf", () => {
  it("reads the errors and values of a failed submission", () => {
    const state = formStateOf(failure);
    expect(state.formError).toBe("Fix the fields below.");
    expect(state.error("name")).toEqual(["Enter a name."]);
    expect(state.error("email")).toBeUndefined();
    expect(state.value("name")).toBe("");
    expect(state.value("amenities")).toBe("gated");
    expect(state.valuesOf("amenities")).toEqual(["gated", "power"]);
    expect(state.valuesOf("missing")).toEqual([]);
  });

  it("is empty for no answer, another answer, or another form's intent", () => {
    for (const data of [undefined, null, { ok: true }, "text"]) {
      expect(isFormFailure(data)).toBe(false);
      expect(formStateOf(data).fieldErrors).toEqual({});
    }
    expect(formStateOf(failure, { intent: "delete" }).error("name")).toBeUndefined();
    expect(formStateOf(failure, { intent: "rename" }).error("name")).toEqual(["Enter a name."]);
  });
});
