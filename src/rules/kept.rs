//! A pure function's answers, remembered per thread by what they were
//! worked out from: the AIs weigh the same few weapons against the same few
//! armours thousands of times a battle, summing over every damage roll each
//! time. Only for functions of their key alone (no world, no dice): an
//! answer remembered is the answer worked out, bit for bit.

use std::cell::Cell;

/// `N` answers of a function from `K` to `V`, one per slot, found by a
/// hash of the key; a new answer takes its slot's place. Made `const`, for
/// a `thread_local!`.
pub struct Kept<K: Copy + 'static, V: Copy + 'static, const N: usize>([Cell<Option<(K, V)>>; N]);

impl<K: Copy + PartialEq + 'static, V: Copy + 'static, const N: usize> Kept<K, V, N> {
    pub const fn new() -> Self {
        Kept([const { Cell::new(None) }; N])
    }

    /// The answer for `key`, remembered or worked out by `f` (and
    /// remembered). `bits`: the key's fields mixed into a number (two
    /// keys that differ may share one; the key itself is compared).
    #[inline]
    pub fn get_or(&self, key: K, bits: u64, f: impl FnOnce(&K) -> V) -> V {
        let slot = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % N;
        if let Some((at, v)) = self.0[slot].get()
            && at == key
        {
            return v;
        }
        let v = f(&key);
        self.0[slot].set(Some((key, v)));
        v
    }
}

/// A key's small fields mixed into the number [`Kept::get_or`] finds its
/// slot by: each field shifted a byte past the one before (the fields a
/// key holds are small: dice ranges, armour, hit points).
#[inline]
pub fn mix<const M: usize>(fields: [i32; M]) -> u64 {
    fields
        .iter()
        .fold(0u64, |bits, f| bits.rotate_left(8) ^ (*f as u32 as u64))
}

impl<K: Copy + PartialEq + 'static, V: Copy + 'static, const N: usize> Default for Kept<K, V, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer is given again only for an equal key: keys sharing a slot
    /// (here every key, with the same bits) push each other out and are
    /// worked out again.
    #[test]
    fn an_answer_is_given_again_only_for_its_own_key() {
        let kept: Kept<(i32, i32), i32, 4> = Kept::new();
        let worked = Cell::new(0);
        let add = |k: &(i32, i32)| {
            worked.set(worked.get() + 1);
            k.0 + k.1
        };
        assert_eq!(kept.get_or((1, 2), 7, add), 3);
        assert_eq!(kept.get_or((1, 2), 7, add), 3);
        assert_eq!(worked.get(), 1, "the second ask was worked out again");
        assert_eq!(kept.get_or((2, 2), 7, add), 4);
        assert_eq!(kept.get_or((1, 2), 7, add), 3);
        assert_eq!(worked.get(), 3, "another key's answer was given");
    }
}
