/**
 * The last answers read from the database, kept in memory so that while the database is
 * unreachable the pages visitors saw recently still answer (docs/operations.md, "When the database
 * is unreachable"). Bounded by count; the least recently used entry goes first.
 */
export class LastGood<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  remember(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  recall(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.remember(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
