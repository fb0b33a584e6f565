import type { SearchQuery, SearchResult } from "../../domain/search";
import { serverNow } from "../clock";
import { TIER_WEIGHT, type Tier } from "../../domain/tiers";
import {
  appendRow,
  columnBytes,
  ColumnBuilder,
  compareRowIds,
  removeRow,
  rowOf,
  TIER_BY_WEIGHT,
  type IndexColumns,
} from "./columns";
import {
  createScratch,
  float32Value,
  itemFragments,
  runQuery,
  selectionJson,
  selectRows,
  type ItemFragments,
  type QueryOutput,
  type QueryScratch,
  type SearchScope,
} from "./query";

/** Rows whose item JSON fragments an index keeps (queryJson). */
const MAX_FRAGMENTS = 20_000;
import { writeSnapshot, type SnapshotInfo } from "./snapshot";
import type { ListingStrings } from "./text";
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
export type TextMatch = ListingStrings;

/** A listing as the home page's preferred partners show it. */
export interface FeaturedListing extends TextMatch {
  rating: number | null;
  reviewCount: number;
  tier: Tier;
  isDemo: boolean;
}

export interface CatalogueSummary {
  /** Listings in the index. */
  total: number;
  /** Listings per state as stored (two-letter codes), by state. */
  byState: { state: string; count: number }[];
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

  /** Whether the columns were read from a snapshot file rather than built from rows. */
  readonly fromSnapshot: boolean;

  constructor(columns: IndexColumns, info: { source: SearchIndexSource; skipped: number; fromSnapshot?: boolean }) {
    this.columns = columns;
    this.skipped = info.skipped;
    this.source = info.source;
    this.fromSnapshot = info.fromSnapshot === true;
  }

  /** Indexed locations (those with usable coordinates). */
  get size(): number {
    return this.columns.live;
  }

  /** Bytes the index's columns hold (typed arrays and string stores, spare room included). */
  get bytes(): number {
    return columnBytes(this.columns);
  }

  /**
   * Saves the index to a snapshot file (snapshot.ts) with what it reflects; resolves to the file's
   * size. No change may be applied until it settles (refresh.ts queues it with the changes).
   */
  saveTo(file: string, info: Omit<SnapshotInfo, "skipped">): Promise<number> {
    return writeSnapshot(file, this.columns, { ...info, skipped: this.skipped });
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

  private summaries: { version: number; byState?: CatalogueSummary; featured?: FeaturedListing[] } = { version: -1 };

  private summary() {
    if (this.summaries.version !== this.version) this.summaries = { version: this.version };
    return this.summaries;
  }

  /**
   * Listings per state (the home page's and the empty results page's list of states), counted from
   * the index instead of a GROUP BY over the table on every visit; once per index version.
   */
  catalogueSummary(): CatalogueSummary {
    const memo = this.summary();
    if (!memo.byState) {
      const { text, entry, dead, size } = this.columns;
      const perCode: number[] = [];
      let total = 0;
      for (let p = 0; p < size; p++) {
        if (dead[p]) continue;
        total++;
        const code = text.state.code(entry[p]!);
        if (code !== 0) perCode[code] = (perCode[code] ?? 0) + 1;
      }
      const counts = new Map<string, number>();
      for (const [code, value] of text.state.table()) {
        const count = perCode[code] ?? 0;
        if (count > 0 && value !== "") counts.set(value, (counts.get(value) ?? 0) + count);
      }
      const byState = [...counts]
        .map(([code, count]) => ({ state: code, count }))
        .sort((a, b) => (a.state < b.state ? -1 : a.state > b.state ? 1 : 0));
      memo.byState = { total, byState };
    }
    return memo.byState;
  }

  /**
   * The home page's preferred partners (docs/product.md section 2): up to `limit` Pro and
   * Preferred listings, best rated first (the combined rating, then more reviews, then by id);
   * once per index version.
   */
  featured(limit: number): FeaturedListing[] {
    const memo = this.summary();
    if (!memo.featured || memo.featured.length < limit) {
      const { tierWeight, ratingKey, reviewCount, dead, size } = this.columns;
      const partners: number[] = [];
      for (let p = 0; p < size; p++) {
        if (!dead[p] && tierWeight[p]! >= TIER_WEIGHT.Preferred) partners.push(p);
      }
      partners.sort(
        (a, b) =>
          ratingKey[b]! - ratingKey[a]! || reviewCount[b]! - reviewCount[a]! || compareRowIds(this.columns, a, b),
      );
      memo.featured = partners.slice(0, Math.max(limit, 6)).map((p) => this.cardAt(p));
    }
    return memo.featured.slice(0, limit);
  }

  /**
   * The card fields of the given listings, in the order given (those not in the index left out):
   * the facility page's nearby cards, without reading their rows from the database.
   */
  cards(ids: readonly string[]): FeaturedListing[] {
    const found: FeaturedListing[] = [];
    for (const id of ids) {
      const p = rowOf(this.columns, id);
      if (p !== undefined) found.push(this.cardAt(p));
    }
    return found;
  }

  private cardAt(p: number): FeaturedListing {
    return {
      ...this.textMatchAt(p),
      rating: float32Value(this.columns.rating[p]!),
      reviewCount: this.columns.reviewCount[p]!,
      tier: TIER_BY_WEIGHT[this.columns.tierWeight[p]!] ?? "Free",
      isDemo: this.columns.isDemo[p] === 1,
    };
  }

  private textMatchAt(p: number): TextMatch {
    return this.columns.text.listing(this.columns.entry[p]!);
  }

  /** Whether listing `id` is in the index now. */
  has(id: string): boolean {
    return rowOf(this.columns, id) !== undefined;
  }

  /** One page of results with the total and facet counts. Never throws for a parsed query. */
  query(q: SearchQuery, scope?: SearchScope): SearchResult {
    return this.run(q, scope, 0).result;
  }

  /**
   * `query`'s answer as JSON, the UTF-8 bytes of `JSON.stringify(query(q, scope))` (GET /api/search):
   * each row's fixed part is serialised once and kept with this index (rows never change in place:
   * a changed listing is a new row), so a new query costs its search and the few parts that depend
   * on it.
   */
  queryJson(q: SearchQuery, scope?: SearchScope): Buffer {
    const selection = selectRows(this.columns, this.scratchFor(), q, this.scopeOf(scope), 0);
    return selectionJson(this.columns, selection, (p) => this.fragmentsOf(p));
  }

  /** Row fragments kept (itemFragments): about 600 bytes each. */
  private fragments = new Map<number, ItemFragments>();

  private fragmentsOf(p: number): ItemFragments {
    let parts = this.fragments.get(p);
    if (!parts) {
      // Bounded: past the limit it starts afresh rather than tracking what was used last.
      if (this.fragments.size >= MAX_FRAGMENTS) this.fragments = new Map();
      parts = itemFragments(this.columns, p);
      this.fragments.set(p, parts);
    }
    return parts;
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
    const { text: strings, entry, dead } = this.columns;
    const needles = words.map((word) => ({ word, bytes: Buffer.from(word, "utf8") }));
    const phrase = words.join(" ");
    const hits: number[] = [];
    for (let p = 0; p < this.columns.size; p++) {
      if (dead[p]) continue;
      const e = entry[p]!;
      if (needles.every(({ word, bytes }) => strings.contains(e, word, bytes))) hits.push(p);
    }
    // Each hit's name decoded once, not at every comparison.
    const ranked = hits.map((p) => {
      const name = strings.name.get(entry[p]!)!;
      return { p, name, rank: name.toLowerCase().startsWith(phrase) ? 0 : 1 };
    });
    ranked.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
    const top = ranked.slice(0, Math.max(0, limit)).map(({ p }) => p);
    return {
      total: hits.length,
      items: top.map((p) => this.textMatchAt(p)),
    };
  }

  private run(q: SearchQuery, scope: SearchScope | undefined, maxMarkers: number): QueryOutput {
    return runQuery(this.columns, this.scratchFor(), q, this.scopeOf(scope), maxMarkers);
  }

  private scratchFor(): QueryScratch {
    // Allocated on first use (an index that is replaced before anyone asks costs none), and again
    // when appended rows outgrew it.
    if (!this.scratch || this.scratch.candidates.length < this.columns.size)
      this.scratch = createScratch(this.columns.size + (this.columns.size >> 4));
    return this.scratch;
  }

  private scopeOf(scope: SearchScope | undefined): SearchScope {
    return { ...scope, now: scope?.now ?? serverNow().getTime() };
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
