import type { ArticleSaveAnswer, ArticleStatus } from "../../../domain/articles";
import { formatLocalDateTime, formatLocalTime } from "../../lib/format";

/**
 * The article editor's state as one reducer (docs/product.md section 13): what the last save
 * made of the article (version, status, address, broken links), whether the form holds unsaved
 * changes, and whether autosave may run. Pure, so the rules of autosave and conflicts are tested
 * without a browser (article-editor-state.test.ts); the component only dispatches.
 */

/** What a save answers (server/blog/admin-pages.ts): the saved article, or why it was refused. */
export type SaveAnswer = ArticleSaveAnswer;

export interface EditorState {
  /** The version the next save starts from; a save from an older one is refused as a conflict. */
  version: number;
  status: ArticleStatus;
  publishedAt: string | null;
  slug: string;
  /** The form differs from what was last saved. */
  dirty: boolean;
  /** After a refused save, autosave waits for the next change instead of sending the same again. */
  blocked: boolean;
  /** When this page last saved (null: not yet, the article's own date is shown). */
  savedAt: string | null;
  /** Another administrator's save won: nothing is saved until the page is reloaded. */
  conflict: string | null;
  brokenLinks: string[];
  /** The last save answer taken, so that one answer is applied once. */
  answer: SaveAnswer | null;
  /** The body's tab on a phone. */
  tab: "write" | "preview";
  /** The SEO fields as typed, for their length hints. */
  seoTitle: string;
  seoDescription: string;
}

export type EditorAction =
  /** The admin changed a field (or an image was inserted into the body). */
  | { type: "edited" }
  /** "Make from title" wrote the address: unsaved, but a refused save stays refused. */
  | { type: "slug-made" }
  | { type: "answered"; answer: SaveAnswer }
  | { type: "tab"; tab: EditorState["tab"] }
  | { type: "seo-typed"; field: "seoTitle" | "seoDescription"; value: string };

export const CONFLICT_TEXT = "Another administrator saved this article.";

export function initialEditorState(article: {
  version: number;
  status: ArticleStatus;
  publishedAt: string | null;
  slug: string;
  brokenLinks: string[];
  seoTitle: string;
  seoDescription: string;
}): EditorState {
  return {
    version: article.version,
    status: article.status,
    publishedAt: article.publishedAt,
    slug: article.slug,
    dirty: false,
    blocked: false,
    savedAt: null,
    conflict: null,
    brokenLinks: article.brokenLinks,
    answer: null,
    tab: "write",
    seoTitle: article.seoTitle,
    seoDescription: article.seoDescription,
  };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "edited":
      return state.dirty && !state.blocked ? state : { ...state, dirty: true, blocked: false };
    case "slug-made":
      return state.dirty ? state : { ...state, dirty: true };
    case "answered": {
      const answer = action.answer;
      if (answer === state.answer) return state;
      if (answer.ok)
        return {
          ...state,
          answer,
          version: answer.version,
          status: answer.status,
          publishedAt: answer.publishedAt,
          slug: answer.slug,
          savedAt: answer.savedAt,
          brokenLinks: answer.brokenLinks,
          dirty: false,
        };
      return {
        ...state,
        answer,
        blocked: true,
        conflict: answer.conflict ? (answer.formError ?? CONFLICT_TEXT) : state.conflict,
      };
    }
    case "tab":
      return state.tab === action.tab ? state : { ...state, tab: action.tab };
    case "seo-typed":
      return state[action.field] === action.value ? state : { ...state, [action.field]: action.value };
  }
}

/** Whether a draft should save itself now (after AUTOSAVE_DELAY_MS without a change). */
export function autosaveDue(state: EditorState, { deleted, saving }: { deleted: boolean; saving: boolean }): boolean {
  return state.dirty && !state.blocked && !deleted && state.status === "draft" && !state.conflict && !saving;
}

/** The line beside the status badge: what happened to the admin's last changes. */
export function saveStatusText(
  state: EditorState,
  { saving, updatedAt, savedByName }: { saving: boolean; updatedAt: string; savedByName: string },
): string {
  if (state.conflict) return "Not saved";
  if (saving) return "Saving…";
  if (state.dirty) return state.status === "draft" ? "Unsaved changes: saving in a moment" : "Unsaved changes";
  if (state.savedAt) return `Saved at ${formatLocalTime(state.savedAt)}`;
  return `Last saved ${formatLocalDateTime(updatedAt)}${savedByName ? ` by ${savedByName}` : ""}`;
}
