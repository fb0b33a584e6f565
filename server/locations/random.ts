/** A small, fast, seedable PRNG (mulberry32), so the demo catalogue is the same on every machine. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (probability) => next() < probability,
  };
}

/** Picks an index with probability proportional to its weight, by binary search on a prefix sum. */
export function weightedSampler(weights: readonly number[]): (random: Random) => number {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += Math.max(0, w);
    cumulative[i] = total;
  });
  if (total <= 0) throw new Error("weightedSampler needs a positive weight");
  return (random) => {
    const target = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
