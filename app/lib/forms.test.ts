import { describe, expect, it } from "vitest";
import { isFormFailure } from "../../domain/forms";
import { formStateOf, isSubmissionOf } from "./forms";

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
    // A form with several submit buttons names each of their intents.
    expect(formStateOf(failure, { intent: ["approve", "reject"] }).formError).toBeUndefined();
    expect(formStateOf(failure, { intent: ["move", "rename"] }).formError).toBe("Fix the fields below.");
  });
});

describe("isSubmissionOf", () => {
  const formData = new FormData();
  formData.set("intent", "archive");
  const posting = {
    state: "submitting" as const,
    formMethod: "POST",
    formAction: "/owner/listings/7",
    formData,
  };

  it("is true for this form's post, and while the page it redirects to loads", () => {
    expect(isSubmissionOf(posting, "/owner/listings/7")).toBe(true);
    expect(isSubmissionOf({ ...posting, state: "loading" }, "/owner/listings/7")).toBe(true);
    expect(isSubmissionOf(posting, "/owner/listings/7", { name: "intent", value: "archive" })).toBe(true);
  });

  it("is false when idle, for another form, another method, another button or a link", () => {
    expect(isSubmissionOf({ ...posting, state: "idle" }, "/owner/listings/7")).toBe(false);
    expect(isSubmissionOf(posting, "/owner/listings/8")).toBe(false);
    expect(isSubmissionOf(posting, "/owner/listings/7", { method: "delete" })).toBe(false);
    expect(isSubmissionOf(posting, "/owner/listings/7", { name: "intent", value: "delete" })).toBe(false);
    expect(isSubmissionOf({ state: "loading" }, "/owner/listings/7")).toBe(false);
  });
});
