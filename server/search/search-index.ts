import type { SearchQuery, SearchResult } from "../../domain/search";
import { serverNow } from "../clock";
import { appendRow, ColumnBuilder, removeRow, rowOf, type IndexColumns } from "./columns";
import { createScratch, runQuery, type QueryOutput, type QueryScratch, type SearchScope } from "./query";
import type { SearchSourceRow } from "./source-row";

/** Where an index's rows came from: the database, the built-in sample, or a caller's rows. */
export type SearchIndexSource = "database" | "sample" | "memory";

/**
 * An immutable snapshot of the catalogue's search fields. A rebuild makes a new one and swaps it
 * in (refresh.ts); a query that started on the old one finishes on it.
 *
 *   getSearchIndex().query({ lat, lng, radius, sizes, amenities, q, sort, page, pageSize })
 *
 * answers radius, filters, sort, page, total and facet counts synchronously, in well under a
 * millisecond for a catalogue of tens of thousands of locations.
 */
export interface TextMatch {
  id: string;
  slug: string;
  name: string;
  address: string | null;
  state: string | null;
  photo: string | null;
}

export class SearchIndex {
  /** Rows left out for want of usable coordinates. */
  readonly skipped: number;
  readonly source: SearchIndexSource;
  readonly builtAt = new Date();
  private readonly columns: IndexColumns;
  private scratch: QueryScratch | undefined;

  /**
   * Bumped by every change applied in place: what was computed from the index before (a cached
   * answer) is stale once it moves.
   */
  version = 0;

  constructor(columns: IndexColumns, info: { source: SearchIndexSource; skipped: number }) {
    this.columns = columns;
    this.skipped = info.skipped;
    this.source = info.source;
  }

  /** Indexed locations (those with usable coordinates). */
  get size(): number {
    return this.columns.live;
  }

  /** Rows appended since the build, scanned by every query: a rebuild folds them into the tree. */
  get appended(): number {
    return this.columns.size - this.columns.baseSize;
  }

  /**
   * Applies changes in place (docs/operations.md, "What instances share"), in time proportional to the
   * rows changed: each of `removed` leaves the index, each of `rows` replaces its listing's row (or
   * joins). A row without a usable point leaves its listing out, as a build would.
   */
  apply(change: { rows?: readonly SearchSourceRow[]; removed?: readonly string[] }): void {
    for (const id of change.removed ?? []) removeRow(this.columns, id);
    for (const row of change.rows ?? []) {
      removeRow(this.columns, row.id);
      appendRow(this.columns, row);
    }
    this.version++;
  }

  /** Whether listing `id` is in the index now. */
  has(id: string): boolean {
    return rowOf(this.columns, id) !== undefined;
  }

  /** One page of results with the total and facet counts. Never throws for a parsed query. */
  query(q: SearchQuery, scope?: SearchScope): SearchResult {
    return this.run(q, scope, 0).result;
  }

  /** `query`, plus map markers for the nearest `maxMarkers` results of the same filters. */
  search(q: SearchQuery, options: SearchScope & { maxMarkers?: number } = {}): QueryOutput {
    return this.run(q, options, options.maxMarkers ?? 0);
  }

  /**
   * Listings whose name, address or state contain every word of `text`, nationwide (the claim
   * finder of docs/product.md section 10): those whose name starts with the text first, then by
   * name. A linear scan with `includes`, so its cost is the catalogue's size whatever the text.
   */
  findByText(text: string, limit = 20): { total: number; items: TextMatch[] } {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    if (words.length === 0) return { total: 0, items: [] };
    const { haystack, name, dead } = this.columns;
    const phrase = words.join(" ");
    const hits: number[] = [];
    for (let p = 0; p < this.columns.size; p++) {
      if (dead[p]) continue;
      const hay = haystack[p]!;
      if (words.every((w) => hay.includes(w))) hits.push(p);
    }
    const rank = (p: number) => (name[p]!.toLowerCase().startsWith(phrase) ? 0 : 1);
    const top = hits.sort((a, b) => rank(a) - rank(b) || name[a]!.localeCompare(name[b]!)).slice(0, Math.max(0, limit));
    return {
      total: hits.length,
      items: top.map((p) => ({
        id: this.columns.id[p]!,
        slug: this.columns.slug[p]!,
        name: name[p]!,
        address: this.columns.address[p] ?? null,
        state: this.columns.state[p] ?? null,
        photo: this.columns.photo[p] ?? null,
      })),
    };
  }

  private run(q: SearchQuery, scope: SearchScope | undefined, maxMarkers: number): QueryOutput {
    // Allocated on first use (an index that is replaced before anyone asks costs none), and again
    // when appended rows outgrew it.
    if (!this.scratch || this.scratch.candidates.length < this.columns.size)
      this.scratch = createScratch(this.columns.size + (this.columns.size >> 4));
    const when: SearchScope = { ...scope, now: scope?.now ?? serverNow().getTime() };
    return runQuery(this.columns, this.scratch, q, when, maxMarkers);
  }
}

/** Collects rows one at a time (the database loader streams them in chunks), then builds. */
export class SearchIndexBuilder {
  private readonly builder = new ColumnBuilder();

  /** False when the row was skipped for want of usable coordinates. */
  add(row: SearchSourceRow): boolean {
    return this.builder.add(row);
  }

  finish(source: SearchIndexSource = "memory"): SearchIndex {
    return new SearchIndex(this.builder.build(), { source, skipped: this.builder.skipped });
  }
}

export function createSearchIndex(rows: Iterable<SearchSourceRow>, source: SearchIndexSource = "memory"): SearchIndex {
  const builder = new SearchIndexBuilder();
  for (const row of rows) builder.add(row);
  return builder.finish(source);
}
