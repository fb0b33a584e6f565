/**
 * A map that forgets its least recently used entry past `max` (a Map keeps insertion order): the
 * search answers per index (server/search/endpoint.ts) and the catalogue's last good answers for
 * when the database is unreachable (server/locations/repository.ts).
 */
export class Lru<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
