//! Things kept in memory for a short while under an unguessable name: previews of unsaved
//! posts, and refused no-script form posts waiting to be shown. Bounded in number (the
//! oldest go first) and in time; nothing reaches the disk, and a restart forgets them all.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

struct Entry<V> {
    value: V,
    made: Instant,
}

pub struct Expiring<V> {
    entries: Mutex<HashMap<String, Entry<V>>>,
    keep_for: Duration,
    most: usize,
}

impl<V: Clone> Expiring<V> {
    /// Keeps at most `most` values, each for `keep_for`.
    pub fn new(keep_for: Duration, most: usize) -> Expiring<V> {
        Expiring {
            entries: Mutex::default(),
            keep_for,
            most: most.max(1),
        }
    }

    /// Keeps `value` and returns its name: 128 random bits in hex.
    pub fn keep(&self, value: V) -> String {
        let name = format!("{:032x}", rand::random::<u128>());
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|_, e| e.made.elapsed() < self.keep_for);
        while entries.len() >= self.most {
            let oldest = entries
                .iter()
                .min_by_key(|(_, e)| e.made)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(key) => entries.remove(&key),
                None => break,
            };
        }
        entries.insert(
            name.clone(),
            Entry {
                value,
                made: Instant::now(),
            },
        );
        name
    }

    /// The value kept under `name`, as often as asked until it expires (or is crowded out).
    pub fn get(&self, name: &str) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get(name)
            .filter(|e| e.made.elapsed() < self.keep_for)
            .map(|e| e.value.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_under_random_names_bounded_in_number_and_time() {
        let store = Expiring::new(Duration::from_millis(200), 2);
        let a = store.keep("a");
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(store.get(&a), Some("a"));
        assert_eq!(store.get(&a), Some("a"), "as often as asked");
        let b = store.keep("b");
        let c = store.keep("c");
        assert_eq!(store.get(&a), None, "the oldest made room");
        assert_eq!((store.get(&b), store.get(&c)), (Some("b"), Some("c")));
        assert_eq!(store.get("not a name"), None);
        std::thread::sleep(Duration::from_millis(250));
        assert_eq!(store.get(&c), None, "expired");
    }
}
