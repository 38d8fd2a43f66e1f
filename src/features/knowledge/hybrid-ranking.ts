/**
 * Fusing rankings by rank alone (reciprocal rank fusion, Cormack et al. 2009): each list gives a
 * passage 1 / (K + rank), so scores of different kinds (bm25, cosine) never need to be compared.
 */

/** Rank constant: larger flattens the difference between the top ranks. */
const K = 20;

export interface RankedHit {
  id: string;
}

/** The passages of all lists, best fused score first, at most `limit`. */
export function fuseRankings(lists: RankedHit[][], limit: number, weights: number[] = lists.map(() => 1)): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  lists.forEach((list, l) => {
    if (weights[l] === 0) return;
    list.forEach((hit, rank) => scores.set(hit.id, (scores.get(hit.id) ?? 0) + weights[l]! / (K + rank + 1)));
  });
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
