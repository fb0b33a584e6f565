import { describe, expect, it } from "vitest";
import {
  autosaveDue,
  CONFLICT_TEXT,
  editorReducer,
  initialEditorState,
  saveStatusText,
  type EditorAction,
  type EditorState,
  type SaveAnswer,
} from "./article-editor-state";

const start = () =>
  initialEditorState({
    version: 3,
    status: "draft",
    publishedAt: null,
    slug: "winter-storage",
    brokenLinks: ["/location/gone"],
    seoTitle: "",
    seoDescription: "",
  });

const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);

const saved = (over: Partial<Extract<SaveAnswer, { ok: true }>> = {}): SaveAnswer => ({
  ok: true,
  mode: "autosave",
  version: 4,
  slug: "winter-storage",
  status: "draft",
  publishedAt: null,
  savedAt: "2026-11-27T10:00:00.000Z",
  brokenLinks: [],
  message: "Saved.",
  ...over,
});

const refused = (over: Partial<Extract<SaveAnswer, { ok: false }>> = {}): SaveAnswer => ({
  ok: false,
  mode: "save",
  fieldErrors: { title: ["Give the article a title."] },
  values: {},
  ...over,
});

const idle = { deleted: false, saving: false };

describe("article editor state", () => {
  it("starts clean, from the loaded article", () => {
    const state = start();
    expect(state).toMatchObject({ version: 3, dirty: false, blocked: false, conflict: null, tab: "write" });
    expect(autosaveDue(state, idle)).toBe(false);
  });

  it("autosaves a draft after a change, never while saving, for a deleted article or once published", () => {
    const edited = run(start(), { type: "edited" });
    expect(autosaveDue(edited, idle)).toBe(true);
    expect(autosaveDue(edited, { deleted: false, saving: true })).toBe(false);
    expect(autosaveDue(edited, { deleted: true, saving: false })).toBe(false);
    const published = run(start(), { type: "answered", answer: saved({ status: "published" }) }, { type: "edited" });
    expect(autosaveDue(published, idle)).toBe(false);
  });

  it("takes a save's version, address, status and links, and is clean after it", () => {
    const answer = saved({ version: 7, slug: "new-address", brokenLinks: ["/x"] });
    const state = run(start(), { type: "edited" }, { type: "answered", answer });
    expect(state).toMatchObject({ version: 7, slug: "new-address", brokenLinks: ["/x"], dirty: false });
    expect(state.savedAt).toBe(answer.ok && answer.savedAt);
  });

  it("applies one answer once: a change after it stays unsaved", () => {
    const answer = saved();
    const state = run(start(), { type: "answered", answer }, { type: "edited" }, { type: "answered", answer });
    expect(state.dirty).toBe(true);
    const same = run(start(), { type: "answered", answer });
    expect(editorReducer(same, { type: "answered", answer })).toBe(same);
  });

  it("stops autosave after a refusal until the next change, so it does not resend the same", () => {
    const state = run(start(), { type: "edited" }, { type: "answered", answer: refused() });
    expect(state.blocked).toBe(true);
    expect(autosaveDue(state, idle)).toBe(false);
    expect(autosaveDue(run(state, { type: "edited" }), idle)).toBe(true);
  });

  it("keeps a refusal blocking when 'Make from title' writes the address", () => {
    const state = run(start(), { type: "edited" }, { type: "answered", answer: refused() }, { type: "slug-made" });
    expect(state).toMatchObject({ dirty: true, blocked: true });
    expect(run(start(), { type: "slug-made" })).toMatchObject({ dirty: true, blocked: false });
  });

  it("stops all saving after a conflict, even after further changes", () => {
    const state = run(
      start(),
      { type: "edited" },
      { type: "answered", answer: refused({ conflict: true, formError: "Sam saved this article at 10:02." }) },
      { type: "edited" },
    );
    expect(state.conflict).toBe("Sam saved this article at 10:02.");
    expect(autosaveDue(state, idle)).toBe(false);
    expect(saveStatusText(state, { saving: false, updatedAt: "2026-11-27T09:00:00Z", savedByName: "" })).toBe(
      "Not saved",
    );
    const unnamed = run(start(), { type: "answered", answer: refused({ conflict: true }) });
    expect(unnamed.conflict).toBe(CONFLICT_TEXT);
  });

  it("keeps a conflict when a later refusal is not one", () => {
    const state = run(
      start(),
      { type: "answered", answer: refused({ conflict: true }) },
      { type: "answered", answer: refused() },
    );
    expect(state.conflict).toBe(CONFLICT_TEXT);
  });

  it("says what happened to the changes", () => {
    const page = { saving: false, updatedAt: "2026-11-20T09:00:00Z", savedByName: "Ada" };
    expect(saveStatusText(start(), page)).toMatch(/^Last saved .+ by Ada$/);
    expect(saveStatusText(start(), { ...page, savedByName: "" })).toMatch(/^Last saved [^b]+$/);
    expect(saveStatusText(start(), { ...page, saving: true })).toBe("Saving…");
    const edited = run(start(), { type: "edited" });
    expect(saveStatusText(edited, page)).toBe("Unsaved changes: saving in a moment");
    const published = run(start(), { type: "answered", answer: saved({ status: "published" }) });
    expect(saveStatusText(run(published, { type: "edited" }), page)).toBe("Unsaved changes");
    expect(saveStatusText(published, page)).toMatch(/^Saved at /);
  });

  it("keeps the phone tab and the SEO fields as typed", () => {
    const state = run(
      start(),
      { type: "tab", tab: "preview" },
      { type: "seo-typed", field: "seoTitle", value: "Winter RV storage" },
    );
    expect(state).toMatchObject({ tab: "preview", seoTitle: "Winter RV storage", seoDescription: "", dirty: false });
  });
});
