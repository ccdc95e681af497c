//! Work is split over rayon's threads only when there is enough of it. The first parallel call
//! starts rayon's pool (a thread per core, each with its own stack and malloc arena), which takes
//! longer than converting or checking a whole small document: a one-chunk job runs right here.

use rayon::prelude::*;

/// `f` of each `size`-long chunk of `items`, in order: side by side when there are two chunks or
/// more, on this thread when there is one.
pub(crate) fn map_chunks<T, R, F>(items: &[T], size: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync + Send,
{
    map_indexed_chunks(items, size, |_, chunk| f(chunk))
}

/// [`map_chunks`] with `f(first, chunk)`, where `first` is the index of the chunk's first item.
pub(crate) fn map_indexed_chunks<T, R, F>(items: &[T], size: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &[T]) -> R + Sync + Send,
{
    let size = size.max(1);
    if worth_splitting(items.len(), size) {
        items.par_chunks(size).enumerate().map(|(index, chunk)| f(index * size, chunk)).collect()
    } else {
        items.chunks(size).enumerate().map(|(index, chunk)| f(index * size, chunk)).collect()
    }
}

/// `f(first, chunk)` of each `size`-long chunk of `items`, where `first` is the index of the
/// chunk's first item, in order: side by side when there are two chunks or more.
pub(crate) fn map_chunks_mut<T, R, F>(items: &mut [T], size: usize, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(usize, &mut [T]) -> R + Sync + Send,
{
    let size = size.max(1);
    if worth_splitting(items.len(), size) {
        items.par_chunks_mut(size).enumerate().map(|(index, chunk)| f(index * size, chunk)).collect()
    } else {
        items.chunks_mut(size).enumerate().map(|(index, chunk)| f(index * size, chunk)).collect()
    }
}

/// `f(index, item)` of each of `items`, in order, at most `jobs` at a time (calls that wait on a
/// network, not the cores, so on a pool of their own); one by one when no pool can be made.
pub(crate) fn map_at_most<T, R, F>(items: &[T], jobs: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &T) -> R + Sync + Send,
{
    match rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build() {
        Ok(pool) => pool.install(|| items.par_iter().enumerate().map(|(index, item)| f(index, item)).collect()),
        Err(_) => items.iter().enumerate().map(|(index, item)| f(index, item)).collect(),
    }
}

/// Whether `count` items, `per_task` to a task, make more than one task.
pub(crate) fn worth_splitting(count: usize, per_task: usize) -> bool {
    count > per_task
}

/// `(a(), b())`, side by side when `split` (see [`worth_splitting`]).
pub(crate) fn join<A, B, RA, RB>(split: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if split { rayon::join(a, b) } else { (a(), b()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_their_order_split_or_not() {
        let items: Vec<usize> = (0..1000).collect();
        for size in [0, 1, 7, 999, 1000, 5000] {
            let sums = map_chunks(&items, size, |chunk| chunk.to_vec());
            assert_eq!(sums.concat(), items, "size {size}");
        }
        assert!(map_chunks(&[] as &[u8], 4, <[u8]>::len).is_empty());
        for size in [1, 7, 1000, 5000] {
            let firsts = map_indexed_chunks(&items, size, |first, chunk| (first, chunk.first().copied()));
            assert!(firsts.iter().all(|(first, item)| Some(*first) == *item || items.len() <= *first), "size {size}");
            assert_eq!(firsts.len(), items.len().div_ceil(size), "size {size}");
        }
        for size in [1, 7, 1000, 5000] {
            let mut doubled = items.clone();
            let firsts = map_chunks_mut(&mut doubled, size, |first, chunk| {
                chunk.iter_mut().for_each(|item| *item *= 2);
                first
            });
            assert!(doubled.iter().zip(&items).all(|(d, i)| *d == i * 2), "size {size}");
            assert_eq!(firsts, (0..items.len()).step_by(size).collect::<Vec<_>>(), "size {size}");
        }
    }

    #[test]
    fn one_task_is_not_split() {
        assert!(!worth_splitting(256, 256));
        assert!(worth_splitting(257, 256));
        assert_eq!(join(false, || 1, || 2), (1, 2));
        assert_eq!(join(true, || 1, || 2), (1, 2));
    }
}
