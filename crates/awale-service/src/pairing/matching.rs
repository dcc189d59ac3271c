//! The most pairs a set of players can make when only some pairs are
//! allowed: Edmonds' blossom algorithm (a maximum matching in a general
//! graph), one player at a time, so that whoever is tried first is never
//! left out by whoever is tried after.

/// Tries to pair `root`, unpaired in `mate`, by an augmenting path over
/// `allowed` (each player's allowed partners): every player paired before
/// stays paired, perhaps with someone else. Returns whether `root` is now
/// paired. When it is not, no matching that keeps the others paired
/// pairs `root` as well.
pub fn augment(allowed: &[Vec<usize>], mate: &mut [Option<usize>], root: usize) -> bool {
    let n = allowed.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::from([root]);
    seen[root] = true;
    while let Some(v) = queue.pop_front() {
        for &to in &allowed[v] {
            if base[v] == base[to] || mate[v] == Some(to) {
                continue;
            }
            if to == root || mate[to].is_some_and(|m| parent[m].is_some()) {
                // An odd cycle: shrink it into one blossom around its base.
                let top = common_base(mate, &parent, &base, v, to);
                let mut in_blossom = vec![false; n];
                mark_path(mate, &mut parent, &base, &mut in_blossom, v, top, to);
                mark_path(mate, &mut parent, &base, &mut in_blossom, to, top, v);
                for i in 0..n {
                    if in_blossom[base[i]] {
                        base[i] = top;
                        if !seen[i] {
                            seen[i] = true;
                            queue.push_back(i);
                        }
                    }
                }
            } else if parent[to].is_none() {
                parent[to] = Some(v);
                let Some(next) = mate[to] else {
                    flip(mate, &parent, to);
                    return true;
                };
                seen[next] = true;
                queue.push_back(next);
            }
        }
    }
    false
}

/// The base of the blossom that the edge `a`–`b` closes.
fn common_base(
    mate: &[Option<usize>],
    parent: &[Option<usize>],
    base: &[usize],
    a: usize,
    b: usize,
) -> usize {
    let mut on_path = vec![false; mate.len()];
    let mut a = a;
    loop {
        a = base[a];
        on_path[a] = true;
        match mate[a].and_then(|m| parent[m]) {
            Some(up) => a = up,
            None => break,
        }
    }
    let mut b = b;
    loop {
        b = base[b];
        if on_path[b] {
            return b;
        }
        // Every vertex met below the root is paired and has a parent.
        match mate[b].and_then(|m| parent[m]) {
            Some(up) => b = up,
            None => return b,
        }
    }
}

fn mark_path(
    mate: &[Option<usize>],
    parent: &mut [Option<usize>],
    base: &[usize],
    in_blossom: &mut [bool],
    v: usize,
    top: usize,
    child: usize,
) {
    let (mut v, mut child) = (v, child);
    while base[v] != top {
        let Some(m) = mate[v] else { return };
        in_blossom[base[v]] = true;
        in_blossom[base[m]] = true;
        parent[v] = Some(child);
        child = m;
        match parent[m] {
            Some(up) => v = up,
            None => return,
        }
    }
}

/// Pairs along the augmenting path that ends at the unpaired `end`.
fn flip(mate: &mut [Option<usize>], parent: &[Option<usize>], end: usize) {
    let mut v = Some(end);
    while let Some(x) = v {
        let Some(p) = parent[x] else { return };
        let next = mate[p];
        mate[x] = Some(p);
        mate[p] = Some(x);
        v = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut g = vec![Vec::new(); n];
        for &(a, b) in edges {
            g[a].push(b);
            g[b].push(a);
        }
        g
    }

    fn check(g: &[Vec<usize>], mate: &[Option<usize>]) {
        for (v, m) in mate.iter().enumerate() {
            if let Some(m) = *m {
                assert_eq!(mate[m], Some(v));
                assert!(g[v].contains(&m), "{v}-{m} is not allowed");
            }
        }
    }

    #[test]
    fn an_augmenting_path_around_a_blossom_is_found() {
        // The triangle 0-1-2 with 1-2 paired, 3 hanging on 1. From 0 the
        // path is 0-2=1-3; a search that first goes 0-1 and marks 2 as seen
        // (no blossoms) misses it.
        let g = graph(4, &[(0, 1), (0, 2), (1, 2), (1, 3)]);
        let mut mate = vec![None, Some(2), Some(1), None];
        assert!(augment(&g, &mut mate, 0));
        check(&g, &mate);
        assert_eq!(mate, vec![Some(2), Some(3), Some(0), Some(1)]);
    }

    #[test]
    fn from_any_start_the_pairs_become_as_many_as_can_be() {
        // Every graph whose edges are a subset of these 10 (a five-cycle
        // and chords: odd cycles everywhere), started from the pairs taken
        // greedily in edge order, forwards or backwards; then each unpaired
        // player tried: as many pairs as the brute-force maximum, and nobody
        // paired at the start left out.
        let all = [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (0, 5),
            (2, 6),
            (5, 6),
            (3, 6),
            (1, 5),
        ];
        for set in 0u32..(1 << all.len()) {
            let mut edges: Vec<(usize, usize)> = (0..all.len())
                .filter(|k| set >> k & 1 == 1)
                .map(|k| all[k])
                .collect();
            let best = most_pairs(&edges, 0);
            for _ in 0..2 {
                edges.reverse();
                let g = graph(7, &edges);
                let mut mate = vec![None; 7];
                for &(a, b) in &edges {
                    if mate[a].is_none() && mate[b].is_none() {
                        mate[a] = Some(b);
                        mate[b] = Some(a);
                    }
                }
                let paired: Vec<bool> = mate.iter().map(Option::is_some).collect();
                for v in 0..7 {
                    if mate[v].is_none() {
                        augment(&g, &mut mate, v);
                    }
                }
                check(&g, &mate);
                let pairs = mate.iter().filter(|m| m.is_some()).count() / 2;
                assert_eq!(pairs, best, "{edges:?}");
                assert!((0..7).all(|v| !paired[v] || mate[v].is_some()));
            }
        }
    }

    fn most_pairs(edges: &[(usize, usize)], used: u32) -> usize {
        let mut best = 0;
        for (k, &(a, b)) in edges.iter().enumerate() {
            if used >> a & 1 == 0 && used >> b & 1 == 0 {
                let rest = most_pairs(&edges[k + 1..], used | 1 << a | 1 << b);
                best = best.max(1 + rest);
            }
        }
        best
    }
}
