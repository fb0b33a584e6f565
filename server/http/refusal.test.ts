import { beforeAll, describe, expect, it } from "vitest";
import { AppError, badRequest, conflict, isAppError, notFound } from "../errors";
import { createFlash, replaceFlash } from "./flash";
import { flashRefusal, formRefusal, isRefusal, refusalOf } from "./refusal";

const typed = { ok: true as const, data: {}, values: { email: "a@example.com" } };
const answerOf = (value: unknown) => value as { data: unknown; init: ResponseInit | null };

beforeAll(() => {
  replaceFlash(createFlash({ secret: "a-test-flash-secret-of-32-characters!", secure: false }));
});

describe("refusalOf", () => {
  it("hands back a refusal whose code is named, and throws everything else on", () => {
    const taken = conflict("Taken.");
    expect(refusalOf(taken, ["conflict"])).toBe(taken);
    expect(() => refusalOf(notFound("Gone."), ["conflict"])).toThrow("Gone.");
    const unexpected = new Error("boom");
    expect(() => refusalOf(unexpected, ["conflict"])).toThrow(unexpected);
  });

  it("decides by code, never by the message", () => {
    const files = new AppError("too_many_files", 400, "Attach at most 3 files.");
    expect(isRefusal(files, ["too_many_files"])).toBe(true);
    expect(isRefusal(files, ["bad_request"])).toBe(false);
    expect(isRefusal(new Error("Attach at most 3 files."), ["too_many_files"])).toBe(false);
  });

  it("tells failures of the same kind apart by code too, not by status (isAppError, for services)", () => {
    const stripeDown = new AppError("bad_gateway", 502, "Stripe is down.");
    const busy = new AppError("busy", 503, "Busy.");
    expect(isAppError(stripeDown, ["bad_gateway"])).toBe(true);
    expect(isAppError(busy, ["bad_gateway"])).toBe(false);
    expect(isAppError(busy)).toBe(true);
    expect(isAppError(new Error("Stripe is down."), ["bad_gateway"])).toBe(false);
  });
});

describe("formRefusal", () => {
  it("says a refusal above the form with its status, keeping the typed values", () => {
    const answer = answerOf(formRefusal(typed, conflict("Someone saved first."), ["conflict"]));
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({
      ok: false,
      fieldErrors: {},
      formError: "Someone saved first.",
      values: { email: "a@example.com" },
    });
  });

  it("says it beside the field it names, or the field the action names, with the status asked", () => {
    const named = answerOf(formRefusal(typed, badRequest("Give a reason.", { field: "reason" }), ["bad_request"]));
    expect(named.data).toMatchObject({ fieldErrors: { reason: ["Give a reason."] } });
    const given = answerOf(
      formRefusal(typed, notFound("No such listing."), ["not_found"], { field: "locationId", status: 400 }),
    );
    expect(given.init?.status).toBe(400);
    expect(given.data).toMatchObject({ fieldErrors: { locationId: ["No such listing."] } });
  });

  it("throws a refusal it was not asked to say, to become the HTTP answer", () => {
    expect(() => formRefusal(typed, notFound("Gone."), ["conflict"])).toThrow(AppError);
  });
});

describe("flashRefusal", () => {
  it("goes back to the page with the refusal as an error message", async () => {
    const response = await flashRefusal("/owner/claims", conflict("Already decided."), ["conflict"]);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/owner/claims");
    expect(response.headers.get("Set-Cookie")).toBeTruthy();
  });
});
